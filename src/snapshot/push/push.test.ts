import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { exportOf, memoryLike } from "../snapshot-files.test-util.js";
import { envelopeEntry, pieces, tarEntry, TRAILER } from "../hostile-artifact.test-util.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "./push.js";

describe("pushSnapshot", () => {
  it("holds files that precede snapshot.json and uploads them, in order, once it arrives", async () => {
    const reg = new MemoryRegistry();
    const envelope = envelopeEntry();
    const tar = Buffer.concat([tarEntry("a.raw", "aaaa"), tarEntry("b.raw", "bbbb"), envelope, TRAILER]);
    const result = await pushSnapshot(pieces(tar), reg, { name: "vm", now: () => 0 });
    expect(result.layerCount).toBe(2);
    expect(reg.calls.map((c) => c.call)).toEqual(["HasBlob", "PutBlob", "HasBlob", "PutBlob", "HasBlob", "PutBlob", "PutManifest"]);
  });

  it("refuses an export whose files before snapshot.json exceed the memory budget, before any upload", async () => {
    const reg = new MemoryRegistry();
    const envelope = envelopeEntry();
    const tar = Buffer.concat([tarEntry("memory-ranges", memoryLike(2 << 20, "m")), envelope, TRAILER]);
    const err = await pushSnapshot(pieces(tar), reg, { name: "vm", memoryBudgetMiB: 1 }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe("snapshot push: 2097152 bytes of files precede snapshot.json, more than the 1 MiB memory budget");
    expect(reg.calls).toEqual([]);
  });

  it.each([
    ["zstdLevel", 1.5],
    ["chunkSizeMiB", Number.NaN],
    ["zstdLevel", 23],
  ] as const)("refuses %s = %s", async (key, value) => {
    const err = await pushSnapshot(exportOf("vm", []), new MemoryRegistry(), { name: "vm", [key]: value }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toContain(key);
  });
});

describe("bad arguments", () => {
  it.each([null, undefined, 42, "tar", {}])("pushSnapshot refuses a stream of %s with ERR_INVALID_ARGUMENT", async (stream) => {
    const err = await pushSnapshot(stream as never, new MemoryRegistry(), { name: "vm" }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
  });

  it.each([null, undefined, {}, { name: "" }, { name: "vm" }])(
    "streamSnapshot refuses options %j with ERR_INVALID_ARGUMENT",
    async (opts) => {
      const err = await streamSnapshot(new Uint8Array(), new MemoryRegistry(), opts as never).catch((e: unknown) => e);
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    },
  );

  it("streamSnapshot refuses manifest bytes that are not a Uint8Array", async () => {
    const sink = collector();
    const err = await streamSnapshot("{}" as never, new MemoryRegistry(), { name: "vm", output: sink.output }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
  });
});

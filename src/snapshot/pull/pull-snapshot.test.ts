import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { RegistryError } from "../../oci/errors.js";
import type { FetchedManifest } from "../../oci/registry.js";
import { createSnapshotExport } from "../export/create-snapshot-export.js";
import { collector } from "../fakes.test-util.js";
import { CountingRegistry, digestOf, indexFor, OCI_INDEX } from "../hostile-artifact.test-util.js";
import { pushSnapshot } from "../push/push.js";
import { EXPORT_MTIME, memoryLike, vmConfig } from "../snapshot-files.test-util.js";
import { streamSnapshot } from "./pull.js";
import { pullSnapshot } from "./pull-snapshot.js";

const FILES = [
  { name: "config.json", data: Buffer.from('{"cpus":2}') },
  { name: "memory-ranges", data: memoryLike(3 << 20, "m"), sparse: { size: 1 << 30, extents: [{ offset: 0, length: 3 << 20 }] } },
];

async function pushed(tag = "hibernate") {
  const reg = new CountingRegistry();
  const result = await pushSnapshot(createSnapshotExport(vmConfig("vm"), FILES, { mtime: EXPORT_MTIME }), reg, {
    name: "vm",
    tag,
    zstdLevel: 3,
    chunkSizeMiB: 1,
    now: () => 0,
  });
  const sink = collector();
  await streamSnapshot(result.manifestBytes, reg, { name: "vm", output: sink.output, now: () => 0 });
  reg.reads.length = 0;
  return { reg, result, expected: sink.bytes() };
}

/** An OCI image index naming `manifest` for linux/amd64, stored under `tag`. */
async function storeIndex(reg: CountingRegistry, manifest: Uint8Array, tag: string): Promise<string> {
  const index = indexFor(manifest);
  await reg.putManifest("vm", tag, index, OCI_INDEX);
  return digestOf(index);
}

describe("pullSnapshot", () => {
  it("pulls a tag in one call: the import tar streamSnapshot writes, the manifest digest and the config", async () => {
    const { reg, result, expected } = await pushed();
    const sink = collector();
    const pulled = await pullSnapshot(reg, "vm:hibernate", sink.output, { now: () => 0 });
    expect(sink.bytes().equals(expected)).toBe(true);
    expect([pulled.name, pulled.reference, pulled.manifestDigest]).toEqual(["vm", "hibernate", result.manifestDigest]);
    expect([pulled.config.schemaVersion, pulled.config.snapshotId, pulled.config.cpu]).toEqual(["v2", "snap-1", 2]);
    expect(reg.reads[0]).toBe("manifest hibernate");
  });

  it("pulls latest for a bare name, and a digest (a tag before it is dropped)", async () => {
    const { reg, result, expected } = await pushed("latest");
    for (const reference of ["vm", `vm@${result.manifestDigest}`, `vm:other@${result.manifestDigest}`]) {
      const sink = collector();
      const pulled = await pullSnapshot(reg, reference, sink.output, { now: () => 0 });
      expect(sink.bytes().equals(expected)).toBe(true);
      expect(pulled.reference).toBe(reference === "vm" ? "latest" : result.manifestDigest);
    }
  });

  it("resolves an image index to its linux/amd64 child, fetched by digest", async () => {
    const { reg, result, expected } = await pushed();
    const indexDigest = await storeIndex(reg, result.manifestBytes, "multi");
    const sink = collector();
    const pulled = await pullSnapshot(reg, "vm:multi", sink.output, { now: () => 0 });
    expect(sink.bytes().equals(expected)).toBe(true);
    expect(pulled.manifestDigest).toBe(indexDigest);
    expect(reg.reads.slice(0, 2)).toEqual(["manifest multi", `manifest ${result.manifestDigest}`]);
  });

  it("passes the registry's not-found through, so absent is told from failed; the output destroyed", async () => {
    const absent = new RegistryError("ERR_REGISTRY_NOT_FOUND", "manifest vm:hibernate not found", { status: 404 });
    const reg = new CountingRegistry();
    reg.getManifest = (): Promise<FetchedManifest> => Promise.reject(absent);
    const out = new PassThrough();
    await expect(pullSnapshot(reg, "vm:hibernate", out)).rejects.toBe(absent);
    expect(out.destroyed).toBe(true);
  });

  it("wraps any other failure of the manifest fetch as ERR_SNAPSHOT_TRANSFER, its cause kept", async () => {
    const reg = new CountingRegistry();
    const out = new PassThrough();
    const err = await pullSnapshot(reg, "vm:hibernate", out).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_TRANSFER")).toBe(true);
    expect((err as Error).message).toBe("get manifest vm:hibernate: manifest not found");
    expect(out.destroyed).toBe(true);
  });

  it("refuses a manifest that is not a snapshot, and writes nothing", async () => {
    const reg = new CountingRegistry();
    await reg.putManifest(
      "vm",
      "img",
      Buffer.from(
        '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:00","size":2},"layers":[]}',
      ),
      "application/vnd.oci.image.manifest.v1+json",
    );
    const sink = collector();
    const err = await pullSnapshot(reg, "vm:img", sink.output).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toMatch(/^manifest is .*, not a snapshot$/u);
    expect(sink.bytes().length).toBe(0);
  });

  it.each([
    ["", ": a repository name must be specified"],
    [":hibernate", ": a repository name must be specified"],
    ["vm:", ": vm: must specify a tag name after the colon"],
    ["vm@sha256:abc", ": invalid checksum digest length"],
    ["vm@md5:abc", ": unsupported digest algorithm: md5:abc"],
    [42, ": it must be a string"],
  ])("refuses the reference %j before any request", async (reference, why) => {
    const reg = new CountingRegistry();
    const err = await pullSnapshot(reg, reference as string, new PassThrough()).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_REFERENCE")).toBe(true);
    expect((err as Error).message).toBe(`snapshot pull: reference ${JSON.stringify(String(reference))}${why}`);
    expect(reg.reads).toEqual([]);
  });

  it("refuses an output that is not writable before any request", async () => {
    const reg = new CountingRegistry();
    const err = await pullSnapshot(reg, "vm", {} as never).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(reg.reads).toEqual([]);
  });

  it("rejects with the signal's reason when aborted, before the first request", async () => {
    const reg = new CountingRegistry();
    const out = new PassThrough();
    const reason = new Error("stop");
    await expect(pullSnapshot(reg, "vm", out, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(reg.reads).toEqual([]);
    expect(out.destroyed).toBe(true);
  });
});

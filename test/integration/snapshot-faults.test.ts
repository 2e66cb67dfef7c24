import { readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { OCIRegistry } from "../../src/oci/oci-registry.js";
import { collector } from "../../src/snapshot/fakes.test-util.js";
import type { SnapshotExportFile } from "../../src/snapshot/export/export-plan.js";
import { exportOf, memoryLike } from "../../src/snapshot/snapshot-files.test-util.js";
import { streamSnapshot } from "../../src/snapshot/pull/pull.js";
import { pushSnapshot } from "../../src/snapshot/push/push.js";
import { startRegistry, type TestRegistry } from "../../src/testing/registry/start-registry.js";

const MEMORY = memoryLike(6 << 20, "fault");
const files: SnapshotExportFile[] = [
  { name: "memory-ranges", data: MEMORY },
  { name: "state.json", data: Buffer.from("{}") },
];
const running: TestRegistry[] = [];

async function fresh(): Promise<{ registry: TestRegistry; oci: OCIRegistry }> {
  const registry = await startRegistry();
  running.push(registry);
  return { registry, oci: new OCIRegistry(registry.host, { timeoutMs: 5000, retries: 0 }) };
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

const tmpEntries = (): string[] =>
  readdirSync(tmpdir())
    .filter((f) => f.startsWith("cocoon-snapshot"))
    .sort();

describe("snapshot faults on a real registry", () => {
  it("registry stopped mid-push: a typed error, the export stream closed, no temp files", async () => {
    const { registry, oci } = await fresh();
    const before = tmpEntries();
    const stream = Readable.from(exportOf("vm-f", files));
    let stopping: Promise<void> | undefined;
    const push = pushSnapshot(stream, oci, {
      name: "vm-f",
      chunkSizeMiB: 1,
      concurrency: 1,
      progress: () => {
        stopping ??= registry.stop();
      },
    });
    const err = await push.catch((e: unknown) => e);
    await stopping;
    expect(isCocoonError(err, "ERR_SNAPSHOT_TRANSFER")).toBe(true);
    expect((err as Error).message).toMatch(/^upload memory-ranges chunk \d: (check|put) blob sha256:/u);
    expect(stream.destroyed).toBe(true);
    expect(tmpEntries()).toEqual(before);
  }, 60_000);

  it("registry stopped mid-pull: a typed error and the output destroyed, never ended", async () => {
    const { registry, oci } = await fresh();
    const pushed = await pushSnapshot(exportOf("vm-f", files), oci, { name: "vm-f", chunkSizeMiB: 1 });
    let stopping: Promise<void> | undefined;
    let written = 0;
    const output = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        if (written > 2 << 20) stopping ??= registry.stop();
        void (stopping ?? Promise.resolve()).then(() => cb());
      },
    });
    const err = await streamSnapshot(pushed.manifestBytes, oci, { name: "vm-f", output, memoryBudgetMiB: 1 }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_TRANSFER")).toBe(true);
    expect((err as Error).message).toMatch(/^stream memory-ranges: (get|read) blob sha256:/u);
    expect(output.destroyed).toBe(true);
    expect(output.writableFinished).toBe(false);
  }, 60_000);

  it("a blob corrupted in the registry: ERR_SNAPSHOT_INTEGRITY, no import reported as done", async () => {
    const { registry, oci } = await fresh();
    const pushed = await pushSnapshot(exportOf("vm-f", files), oci, { name: "vm-f" });
    const layer = (JSON.parse(Buffer.from(pushed.manifestBytes).toString()) as { layers: { digest: string }[] }).layers[0] as {
      digest: string;
    };
    const hex = layer.digest.slice("sha256:".length);
    const blob = path.join(registry.dir, "data/docker/registry/v2/blobs/sha256", hex.slice(0, 2), hex, "data");
    writeFileSync(blob, Buffer.alloc(MEMORY.length, 0x5a));
    const sink = collector();
    const err = await streamSnapshot(pushed.manifestBytes, oci, { name: "vm-f", output: sink.output }).catch((e: unknown) => e);
    expect([(err as { code?: string }).code, (err as Error).message]).toEqual([
      "ERR_SNAPSHOT_INTEGRITY",
      expect.stringContaining(layer.digest),
    ]);
    expect(sink.output.destroyed).toBe(true);
    expect(sink.output.writableFinished).toBe(false);
  }, 60_000);

  it("an aborted signal: push rejects with the reason and stores no manifest; pull rejects and destroys the output", async () => {
    const { oci } = await fresh();
    const ac = new AbortController();
    const reason = new Error("stop now");
    const push = pushSnapshot(exportOf("vm-f", files), oci, {
      name: "vm-f",
      chunkSizeMiB: 1,
      concurrency: 1,
      signal: ac.signal,
      progress: () => ac.abort(reason),
    });
    await expect(push).rejects.toBe(reason);
    expect(await oci.hasManifest("vm-f", "latest")).toBe(false);
    const pushed = await pushSnapshot(exportOf("vm-f", files), oci, { name: "vm-f" });
    const pullAbort = new AbortController();
    const sink = collector();
    const pull = streamSnapshot(pushed.manifestBytes, oci, {
      name: "vm-f",
      output: sink.output,
      signal: pullAbort.signal,
      progress: () => pullAbort.abort(reason),
    });
    await expect(pull).rejects.toBe(reason);
    expect(sink.output.destroyed).toBe(true);
  }, 60_000);

  it("a memory budget below four chunks: ERR_INVALID_ARGUMENT before any request", async () => {
    const { oci } = await fresh();
    const err = await pushSnapshot(exportOf("vm-f", files), oci, { name: "vm-f", chunkSizeMiB: 512, memoryBudgetMiB: 1024 }).catch(
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toBe("snapshot push: chunk size 512 MiB needs at least a 2048 MiB memory budget, got 1024 MiB");
    expect(oci.requestCounts.registry).toBe(0);
  }, 60_000);
});

import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCIRegistry } from "../../src/oci/oci-registry.js";
import { collector } from "../../src/snapshot/fakes.test-util.js";
import type { SnapshotExportFile } from "../../src/snapshot/export/export-plan.js";
import { formatSparseMap, type SparseLayout } from "../../src/snapshot/export/sparse-records.js";
import { exportOf, memoryLike, readImport } from "../../src/snapshot/snapshot-files.test-util.js";
import { streamSnapshot } from "../../src/snapshot/pull/pull.js";
import { pullSnapshot } from "../../src/snapshot/pull/pull-snapshot.js";
import { readExportFile } from "../../src/snapshot/io/export-file.js";
import { pushSnapshot } from "../../src/snapshot/push/push.js";
import type { PushOptions } from "../../src/snapshot/push/push-options.js";
import { startRegistry, type TestRegistry } from "../../src/testing/registry/start-registry.js";

const SPARSE: SparseLayout = {
  size: 8589934592,
  extents: [
    { offset: 0, length: 1048576 },
    { offset: 4194304, length: 2109497 },
  ],
};
const files: (SnapshotExportFile & { data: Buffer })[] = [
  { name: "config.json", data: Buffer.from('{"cpus":2}') },
  { name: "memory-ranges", data: memoryLike(3 * (1 << 20) + 12345, "mem"), mode: 0o100600, sparse: SPARSE },
  { name: "overlay.qcow2", data: memoryLike(200 * 1024, "disk"), sparse: { size: 1048576, extents: [{ offset: 0, length: 204800 }] } },
  { name: "empty.log", data: Buffer.alloc(0) },
];
/** The PAX records a sparse file's layout is written as. */
const recordsOf = (sparse?: SparseLayout): Record<string, string> =>
  sparse ? { "COCOON.sparse.map": formatSparseMap(sparse.extents), "COCOON.sparse.size": String(sparse.size) } : {};

const dir = mkdtempSync(path.join(tmpdir(), "snapshot-registry-"));
let registry: TestRegistry;
let oci: OCIRegistry;
beforeAll(async () => {
  registry = await startRegistry();
  oci = new OCIRegistry(registry.host);
}, 120_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await registry?.stop();
});

/** The export as a stream, or as a tar file on disk read by `readExportFile` (chunks read straight into their buffers). */
async function exportSource(from: "stream" | "file", name: string): Promise<AsyncIterable<Uint8Array>> {
  if (from === "stream") return exportOf("vm-rt", files);
  const file = path.join(dir, `${name}.tar`);
  await pipeline(exportOf("vm-rt", files), createWriteStream(file));
  return readExportFile(file);
}

async function roundTrip(name: string, knobs: Partial<PushOptions>, from: "stream" | "file" = "stream") {
  const pushed = await pushSnapshot(await exportSource(from, name), oci, { name, tag: "hibernate", ...knobs });
  const sink = collector();
  const pulled = await pullSnapshot(oci, `${name}:hibernate`, sink.output, { memoryBudgetMiB: knobs.memoryBudgetMiB ?? 0 });
  expect(pulled.manifestDigest).toBe(pushed.manifestDigest);
  return { pushed, entries: await readImport(sink.bytes()) };
}

describe("snapshot push then pull on a real registry (CNCF distribution)", () => {
  it.each([
    ["v1", {}],
    ["v2 zstd", { zstdLevel: 3 }],
    ["v2 chunked", { chunkSizeMiB: 1, concurrency: 2 }],
    ["v2 zstd + chunked", { zstdLevel: 3, chunkSizeMiB: 1, concurrency: 2 }],
    ["v2 zstd + chunked, sequential pull", { zstdLevel: 3, chunkSizeMiB: 1, memoryBudgetMiB: 4 }],
    ["v1 from an export file", {}],
    ["v2 zstd + chunked from an export file", { zstdLevel: 3, chunkSizeMiB: 1, concurrency: 2 }],
  ] as const)("%s gives back every file, mode and sparse map", async (label, knobs) => {
    const name = `vm-rt-${label.replace(/[^a-z0-9]+/gu, "-")}`;
    const { pushed, entries } = await roundTrip(name, knobs, label.endsWith("export file") ? "file" : "stream");
    expect(pushed.layerCount).toBe(label.includes("chunked") ? 7 : 4);
    expect(entries.map((e) => e.name)).toEqual(["snapshot.json", "config.json", "memory-ranges", "overlay.qcow2", "empty.log"]);
    expect(JSON.parse(Buffer.from(entries[0]?.data ?? []).toString())).toEqual({
      version: 1,
      config: { id: "snap-1", name, hypervisor: "cloud-hypervisor", cpu: 2, memory: 1 << 30 },
    });
    for (const f of files) {
      const got = entries.find((e) => e.name === f.name);
      expect(Buffer.from(got?.data ?? []).equals(f.data)).toBe(true);
      expect(got?.mode).toBe(f.mode ?? 0o640);
      expect(got?.pax).toEqual(recordsOf(f.sparse));
    }
  });

  it("does not upload a blob the registry already holds", async () => {
    await pushSnapshot(exportOf("vm-dedup", files), oci, { name: "vm-dedup", now: () => 0 });
    const before = oci.requestCounts.registry;
    await pushSnapshot(exportOf("vm-dedup", files), oci, { name: "vm-dedup", tag: "again", now: () => 0 });
    // 4 layers + config: one HEAD each (all present), then one manifest PUT.
    expect(oci.requestCounts.registry - before).toBe(6);
  });

  it("streams a v1 file above 16 MiB while hashing it (POST, PATCH, PUT), so a push again sends it again", async () => {
    const memory = memoryLike(20 * (1 << 20) + 3, "big");
    const big: SnapshotExportFile[] = [{ name: "memory-ranges", data: memory }];
    const start = oci.requestCounts.registry;
    const pushed = await pushSnapshot(exportOf("vm-big", big), oci, { name: "vm-big", now: () => 0 });
    // memory-ranges: POST, one PATCH of 16 MiB, PUT with the rest; config: HEAD, POST, PUT; the manifest PUT.
    expect(oci.requestCounts.registry - start).toBe(7);
    const again = oci.requestCounts.registry;
    await pushSnapshot(exportOf("vm-big", big), oci, { name: "vm-big", tag: "again", now: () => 0 });
    expect(oci.requestCounts.registry - again).toBe(5); // the file again; the config only probed
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, oci, { name: "vm-big", output: sink.output });
    const entries = await readImport(sink.bytes());
    expect(Buffer.from(entries.find((e) => e.name === "memory-ranges")?.data ?? []).equals(memory)).toBe(true);
  });
});

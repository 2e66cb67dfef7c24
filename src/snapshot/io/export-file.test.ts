import { readdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import type { SnapshotExportFile } from "../export/export-plan.js";
import { exportOf, memoryLike } from "../snapshot-files.test-util.js";
import { EXPORT_READ_SIZE, ExportFile, pieceSourceOf, readExportFile } from "./export-file.js";
import { MemoryRegistry } from "../fakes.test-util.js";
import { pushSnapshot } from "../push/push.js";
import type { PushOptions } from "../push/push-options.js";

const dir = mkdtempSync(path.join(tmpdir(), "export-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const openFiles = (): number => readdirSync("/proc/self/fd").length;

async function tarBytes(files: readonly SnapshotExportFile[]): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of exportOf("vm", files)) parts.push(p);
  return Buffer.concat(parts);
}

const files = [
  { name: "memory-ranges", data: memoryLike((13 << 20) + 123, "m") },
  { name: "config.json", data: Buffer.from("{}") },
  { name: "overlay.qcow2", data: memoryLike(3 << 20, "o") },
];
const v2: PushOptions = { name: "vm", zstdLevel: 3, chunkSizeMiB: 1, now: () => 0 };

describe("readExportFile", () => {
  it("reads the file's bytes in pieces of 1 MiB", async () => {
    const data = memoryLike((2 << 20) + 5, "e");
    const file = path.join(dir, "export.tar");
    writeFileSync(file, data);
    const pieces: Buffer[] = [];
    for await (const piece of readExportFile(file)) pieces.push(piece as Buffer);
    expect(EXPORT_READ_SIZE).toBe(1 << 20);
    expect(pieces.map((p) => p.length)).toEqual([1 << 20, 1 << 20, 5]);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    expect(readExportFile(file)).toBeInstanceOf(ExportFile);
  });

  it.each<[string, PushOptions]>([
    ["v1", { name: "vm", now: () => 0 }],
    ["v2, zstd, 1 MiB chunks", v2],
    ["v2, zstd, 8 MiB chunks (two 4 MiB reads each)", { ...v2, chunkSizeMiB: 8 }],
  ])("pushes (%s) exactly what the same tar as a stream pushes, and closes the file", async (label, opts) => {
    const file = path.join(dir, `same-${label.replace(/\W+/gu, "-")}.tar`);
    writeFileSync(file, await tarBytes(files));
    const fromStream = new MemoryRegistry();
    const fromFile = new MemoryRegistry();
    const fds = openFiles();
    const a = await pushSnapshot(exportOf("vm", files), fromStream, opts);
    const b = await pushSnapshot(readExportFile(file), fromFile, opts);
    expect(openFiles()).toBe(fds);
    expect(Buffer.from(b.manifestBytes).equals(a.manifestBytes)).toBe(true);
    expect([...fromFile.blobs.keys()].sort()).toEqual([...fromStream.blobs.keys()].sort());
    // Chunks upload two at a time, so calls are compared as sets.
    const sorted = (reg: MemoryRegistry): string[] => reg.calls.map((c) => JSON.stringify(c)).sort();
    expect(sorted(fromFile)).toEqual(sorted(fromStream));
  });

  it("fails a file cut inside a chunk as the stream does, with Go's unexpected EOF, and closes the file", async () => {
    const whole = await tarBytes(files);
    // Past three whole 1 MiB chunks of memory-ranges, inside the fourth.
    const cut = whole.subarray(0, 2048 + (3 << 20) + 10);
    const file = path.join(dir, "cut.tar");
    writeFileSync(file, cut);
    const fds = openFiles();
    const fromFile = await pushSnapshot(readExportFile(file), new MemoryRegistry(), v2).catch((e: unknown) => e);
    const fromStream = await pushSnapshot(exportStreamOf(cut), new MemoryRegistry(), v2).catch((e: unknown) => e);
    expect(openFiles()).toBe(fds);
    expect(isCocoonError(fromFile, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((fromFile as Error).message).toBe("read memory-ranges chunk 3: unexpected EOF");
    expect(isCocoonError(fromStream, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((fromStream as Error).message).toBe((fromFile as Error).message);
  });

  it("reads a region by position, and closes the file only once a read under way has ended", async () => {
    const data = memoryLike(3 << 20, "c");
    const file = path.join(dir, "region.tar");
    writeFileSync(file, data);
    const fds = openFiles();
    const source = pieceSourceOf(readExportFile(file));
    expect((await source.next())?.length).toBe(EXPORT_READ_SIZE);
    const readAt = source.reserve?.(1 << 20, 5);
    const out = Buffer.alloc(1 << 20);
    const reading = readAt?.(out, 0);
    const closing = source.close();
    expect(await reading).toBe(1 << 20);
    await closing;
    expect(out.equals(data.subarray(EXPORT_READ_SIZE - 5, EXPORT_READ_SIZE - 5 + (1 << 20)))).toBe(true);
    expect(openFiles()).toBe(fds);
  });

  it("fails a file that does not exist with its ENOENT, as a malformed export", async () => {
    const err = await pushSnapshot(readExportFile(path.join(dir, "missing.tar")), new MemoryRegistry(), v2).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toMatch(/^read tar entry: ENOENT: no such file or directory, open '.*missing\.tar'$/u);
  });
});

function exportStreamOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536);
  })();
}

import { mkdtemp, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../internal/go-vectors.test-util.js";
import { readTar } from "../codec/tar-reader.js";
import { parseSparseRecords } from "../export/sparse-records.js";
import { clockOf, MemoryRegistry } from "../fakes.test-util.js";
import { ByteReader } from "../io/byte-reader.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "../push/push.js";
import { allocatedBytes, BLOCK, blockExtents, seekDataExtents } from "./data-extents.test-util.js";
import { restoreSnapshot } from "./restore-snapshot.js";

const json = <T>(...p: string[]): T => JSON.parse(read(...p).toString()) as T;

interface ExpectedFile {
  /** The data bytes, extent after extent (a 10 GiB sparse file is not read whole). */
  stored: Buffer;
  size: number;
  mode: number;
  extents: { offset: number; length: number }[];
}

/** Every file of a tar as it should come back: its data, size, permission bits and data extents. */
async function filesOf(tar: Buffer): Promise<Map<string, ExpectedFile>> {
  const files = new Map<string, ExpectedFile>();
  for await (const { entry, body } of readTar(new ByteReader(Readable.from([tar])))) {
    const stored = Buffer.alloc(entry.size);
    await body.readInto(stored);
    const layout = parseSparseRecords(entry.name, entry.pax, entry.size);
    const extents = layout?.extents.map((e) => ({ ...e })) ?? (entry.size > 0 ? [{ offset: 0, length: entry.size }] : []);
    files.set(entry.name, { stored, size: layout?.size ?? entry.size, mode: entry.mode & 0o777, extents });
  }
  return files;
}

/** The bytes of a file's data extents, one after another (its holes read as zeros: the kernel's extents below prove them holes). */
async function readExtents(path: string, extents: readonly { offset: number; length: number }[]): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const parts: Buffer[] = [];
    for (const e of extents) {
      const part = Buffer.alloc(e.length);
      const { bytesRead } = await fh.read(part, 0, e.length, e.offset);
      parts.push(part.subarray(0, bytesRead));
    }
    return Buffer.concat(parts);
  } finally {
    await fh.close();
  }
}

async function exportThroughRestore(dir: string, into: string) {
  const o = json<{ name: string; tag: string; baseImage: string; zstdLevel: number; chunkSizeMiB: number; nowUnixMilli: number }>(
    "snapshot",
    dir,
    "push-options.json",
  );
  const reg = new MemoryRegistry();
  const pushed = await pushSnapshot(Readable.from([read("snapshot", dir, "export.tar")]), reg, {
    name: o.name,
    tag: o.tag,
    baseImage: o.baseImage,
    zstdLevel: o.zstdLevel,
    chunkSizeMiB: o.chunkSizeMiB,
    now: clockOf(o),
  });
  const so = json<{ name: string; localName: string; nowUnixMilli: number }>("snapshot", dir, "stream-options.json");
  const tar = new PassThrough();
  const [, restored] = await Promise.all([
    streamSnapshot(pushed.manifestBytes, reg, { name: so.name, localName: so.localName, output: tar, now: clockOf(so) }),
    restoreSnapshot(tar, into),
  ]);
  return restored;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("restore of Go's exports: export → push → pull → restore", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s gives back every file byte for byte, mode for mode, hole for hole", async (dir) => {
    const into = await mkdtemp(join(tmpdir(), "restore-anchor-"));
    dirs.push(into);
    const restored = await exportThroughRestore(dir, into);
    const exported = await filesOf(read("snapshot", dir, "export.tar"));
    const imported = await filesOf(read("snapshot", dir, "stream.tar"));
    expect((await readdir(into)).sort()).toEqual([...imported.keys()].sort());
    expect(restored.files.map((f) => f.name)).toEqual([...imported.keys()]);
    let bytes = 0;
    for (const file of restored.files) {
      // snapshot.json is the pull's envelope; every other file holds the export's data, with the
      // import tar's mode (an export's mode 0 comes back 0640, Go's layerHeader default)
      const data = (file.name === "snapshot.json" ? imported : exported).get(file.name);
      const mode = imported.get(file.name)?.mode;
      if (data === undefined || mode === undefined) throw new Error(`${file.name} is in no tar`);
      const want = { ...data, mode };
      const path = join(into, file.name);
      const info = await stat(path);
      expect((await readExtents(path, want.extents)).equals(want.stored), file.name).toBe(true);
      expect(info.size).toBe(want.size);
      expect(info.mode & 0o7777).toBe(want.mode);
      expect(file).toEqual({ name: file.name, mode: want.mode, size: want.size, dataExtents: want.extents });
      const blocks = blockExtents(want.extents, info.size);
      expect(seekDataExtents(path), file.name).toEqual(blocks);
      expect(allocatedBytes(path), file.name).toBe(blocks.reduce((n, [s, e]) => n + Math.ceil((e - s) / BLOCK) * BLOCK, 0));
      bytes += want.extents.reduce((n, e) => n + e.length, 0);
    }
    expect(restored.bytes).toBe(bytes);
  });

  it("leaves holes unwritten: v2-zstd-chunked's 8 MiB memory-ranges takes its 2.5 MiB of data on disk", async () => {
    const into = await mkdtemp(join(tmpdir(), "restore-anchor-"));
    dirs.push(into);
    await exportThroughRestore("v2-zstd-chunked", into);
    const path = join(into, "memory-ranges");
    expect((await stat(path)).size).toBe(8 * 2 ** 20);
    expect(seekDataExtents(path)).toEqual([
      [0, 1048576],
      [4194304, 5767168],
    ]);
    expect(allocatedBytes(path)).toBe(2621440);
  });
});

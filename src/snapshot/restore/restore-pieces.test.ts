import { randomFillSync } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeTarHeader, TAR_TRAILER, tarPadding } from "../codec/tar-header.js";
import { SparsePAX } from "../codec/sparse-pax.js";
import { formatSparseMap } from "../export/sparse-records.js";
import { blockExtents, seekDataExtents } from "./data-extents.test-util.js";
import { restoreSnapshot } from "./restore-snapshot.js";

const extents = [
  { offset: 0, length: 0 },
  { offset: 10, length: 700_000 },
  { offset: 3 * 2 ** 20 + 5, length: 1 },
  { offset: 4 * 2 ** 20, length: 300_000 },
];
const size = 6 * 2 ** 20 + 3;
const stored = randomFillSync(Buffer.alloc(extents.reduce((n, e) => n + e.length, 0)));

/** The tar of one sparse file with unaligned extents (a zero-length one first). */
function sparseTar(): Buffer {
  const pax = { [SparsePAX.Map]: formatSparseMap(extents), [SparsePAX.Size]: String(size) };
  const header = encodeTarHeader({ name: "memory-ranges", size: stored.length, mode: 0o600, mtime: 0, pax });
  return Buffer.concat([header, stored, tarPadding(stored.length), TAR_TRAILER]);
}

/** `tar` in pieces whose lengths cycle through `lengths`. */
async function* cut(tar: Buffer, lengths: readonly number[]): AsyncGenerator<Uint8Array> {
  for (let at = 0, i = 0; at < tar.length; i++) {
    const n = lengths[i % lengths.length] as number;
    yield tar.subarray(at, at + n);
    at += n;
  }
}

describe("restoreSnapshot puts every byte where it lies, whatever the pieces", () => {
  it.each([
    ["1-byte pieces near the 256 KiB line", [1, 262_143, 262_144, 7]],
    ["pieces that span extents", [1_000_003]],
    ["one piece", [1 << 30]],
    ["odd small pieces", [511, 4097, 65_537]],
  ])("%s", async (_what, lengths) => {
    const dir = await mkdtemp(join(tmpdir(), "restore-pieces-"));
    try {
      const result = await restoreSnapshot(cut(sparseTar(), lengths), dir);
      const want = Buffer.alloc(size);
      let at = 0;
      for (const e of extents) at += stored.copy(want, e.offset, at, at + e.length);
      const path = join(dir, "memory-ranges");
      expect((await readFile(path)).equals(want)).toBe(true);
      expect(result).toEqual({ files: [{ name: "memory-ranges", mode: 0o600, size, dataExtents: extents }], bytes: stored.length });
      expect(seekDataExtents(path)).toEqual(blockExtents(extents, size));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("restoreSnapshot tells the tar's refusals from its source's failures by type", () => {
  it("a source failing with Go's text is the source's failure, passed through as it is", async () => {
    const dir = await mkdtemp(join(tmpdir(), "restore-source-"));
    const failure = new Error("unexpected EOF");
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield sparseTar().subarray(0, 1024);
      throw failure;
    }
    try {
      await expect(restoreSnapshot(failing(), dir)).rejects.toBe(failure);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a tar that ends inside a file is the tar's refusal, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "restore-short-"));
    try {
      await expect(restoreSnapshot(cut(sparseTar().subarray(0, 4096), [4096]), dir)).rejects.toMatchObject({
        code: "ERR_SNAPSHOT_FORMAT",
        message: 'restore: "memory-ranges": unexpected EOF',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// Hostile import tars for the restore, written block by block, and a fresh directory to restore them into.
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { encodeTarHeader, type TarEntryHeader } from "../../../src/snapshot/codec/tar-header.js";
import { padded } from "../../../src/snapshot/hostile-artifact.test-util.js";
import { restoreSnapshot, type RestoreResult } from "../../../src/snapshot/index.js";

export { padded, TRAILER } from "../../../src/snapshot/hostile-artifact.test-util.js";

/** The fields of a hand-written header block; what is not given is a regular 0640 file of 0 bytes. */
export interface RawHeader {
  name: string;
  typeflag?: string;
  size?: number;
  mode?: number;
  linkname?: string;
  /** Added to the checksum the block should carry (0: a correct one). */
  checksumSkew?: number;
}

/** One USTAR header block, field by field, with its checksum (skewed when asked). */
export function rawHeader(h: RawHeader): Buffer {
  const block = Buffer.alloc(512);
  const octal = (at: number, length: number, n: number): void => {
    block.write(`${n.toString(8).padStart(length - 1, "0")}\0`, at, "latin1");
  };
  block.write(h.name, 0, 100, "utf8");
  octal(100, 8, h.mode ?? 0o640);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, h.size ?? 0);
  octal(136, 12, 0);
  block.write(h.typeflag ?? "0", 156, "latin1");
  block.write(h.linkname ?? "", 157, 100, "utf8");
  block.write("ustar\0" + "00", 257, "latin1");
  block.fill(0x20, 148, 156);
  let sum = h.checksumSkew ?? 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

/** A regular entry as the package's own tar writer (Go's) writes it: PAX records when the name or `pax` needs them. */
export function fileEntry(name: string, data: string | Buffer, rest: Partial<TarEntryHeader> = {}): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from(encodeTarHeader({ name, size: bytes.length, mode: 0o640, mtime: 0, ...rest })), padded(bytes)]);
}

/** A source that yields `tar` in pieces of `piece` bytes, each only when asked (no read-ahead), and counts how many were taken. */
export function countedSource(tar: Buffer, piece = 512): { source: AsyncIterable<Buffer>; taken: () => number } {
  let taken = 0;
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let at = 0; at < tar.length; at += piece) {
      taken++;
      yield tar.subarray(at, at + piece);
    }
  }
  return { source: pieces(), taken: () => taken };
}

/** A fresh directory inside a fresh parent (so a name that escapes would land in `parent`). */
export async function freshDir(): Promise<{ parent: string; dir: string; remove: () => Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "restore-hostile-"));
  const dir = join(parent, "vm");
  await mkdir(dir);
  return { parent, dir, remove: () => rm(parent, { recursive: true, force: true }) };
}

/** Restores `tar` into a fresh directory: the outcome (the error, or the result), and what the directory and its parent hold after. */
export async function restoreTar(tar: Buffer): Promise<{ err: unknown; result?: RestoreResult; files: string[]; parent: string[] }> {
  const { parent, dir, remove } = await freshDir();
  try {
    let err: unknown;
    let result: RestoreResult | undefined;
    try {
      result = await restoreSnapshot(Readable.from([tar]), dir);
    } catch (e) {
      err = e;
    }
    return { err, ...(result && { result }), files: (await readdir(dir)).sort(), parent: (await readdir(parent)).sort() };
  } finally {
    await remove();
  }
}

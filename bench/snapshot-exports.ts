/**
 * The exports the snapshot benches push and pull: one `memory-ranges` file of `size` bytes, in a
 * `cocoon snapshot export` tar. Dense: 4 KiB pages, one in four random, the others a text motif
 * naming the page (zstd -3 takes it to about a third; no two MiB alike, so nothing dedups).
 * Sparse: the same size, 15 in 16 MiB zero, with cocoon's `COCOON.sparse.*` records.
 */
import { randomFillSync } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createSnapshotExport } from "../src/snapshot/export/create-snapshot-export.js";
import { vmConfig } from "../src/snapshot/snapshot-files.test-util.js";

/** One MiB of dense memory: 4 KiB pages, one in four random, the others a text motif naming the page, so no two MiB are alike. */
function denseBlock(index: number, block: number): Buffer {
  const out = Buffer.allocUnsafe(block);
  for (let page = 0; page < block / 4096; page++) {
    const at = page * 4096;
    if ((page * 7 + index) % 4 === 0) randomFillSync(out, at, 4096);
    else out.fill(`vm memory ${index}:${page} `, at, at + 4096);
  }
  return out;
}

/** Writes a dense or sparse export of `size` bytes (a multiple of 1 MiB) into `file`. */
export async function writeExport(file: string, size: number, sparse: boolean): Promise<void> {
  const block = 1 << 20;
  function* data(): Generator<Uint8Array> {
    for (let i = 0; i < size / block; i++) yield sparse && i % 16 !== 0 ? Buffer.alloc(block) : denseBlock(i, block);
  }
  const memory = {
    name: "memory-ranges",
    data: data(),
    size,
    mode: 0o600,
    ...(sparse && { sparse: { size: size * 16, extents: [{ offset: 0, length: size }] } }),
  };
  await pipeline(Readable.from(createSnapshotExport(vmConfig("vm-bench"), [memory], { mtime: new Date(0) })), createWriteStream(file));
}

/** `--size` in MiB: `1G`, `256M` or a bare number of MiB. */
export function sizeMiB(text: string): number {
  const mib = /^\d+[gG]$/u.test(text) ? Number.parseInt(text, 10) * 1024 : Number.parseInt(text, 10);
  if (!(mib > 0)) throw new Error(`--size ${text}: want e.g. 1G, 256M or 256`);
  return mib;
}

/**
 * The zstd codec choice, measured: the candidates that run on Node 20, 22 and 24 against the
 * `zstd` CLI on the same 64 MiB of memory-like pages, cut in 4 MiB frames as a v2 push cuts them.
 * Node's own `zlib` zstd is measured too where this Node has it (22.15 and later).
 *
 * Run: npx tsx bench/snapshot-zstd.ts [-- --mib 64]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { decompress as fzstdDecompress } from "fzstd";
import { memoryLike } from "../src/snapshot/export-tar.test-util.js";
import { compressFrame, decodeChunk } from "../src/snapshot/zstd.js";

const { values: args } = parseArgs({ options: { mib: { type: "string", default: "64" } } });
const data = memoryLike(Number(args.mib) * 2 ** 20, "bench");
const FRAME = 4 << 20;
const frames: Uint8Array[] = [];
const mbps = (ms: number): string => (data.length / 1e6 / (ms / 1000)).toFixed(0);

async function time(fn: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

console.log(`| codec (node ${process.version}) | compress MB/s | decompress MB/s |`);
console.log("|---|---:|---:|");
const wasmC = await time(async () => {
  for (let at = 0; at < data.length; at += FRAME) frames.push(await compressFrame(data.subarray(at, at + FRAME), 3));
});
const wasmD = await time(async () => {
  for (const f of frames) await decodeChunk(f, FRAME);
});
const fz = await time(() => {
  for (const f of frames) fzstdDecompress(f);
});
console.log(`| @bokuweb/zstd-wasm (level 3, one-shot frames) | ${mbps(wasmC)} | ${mbps(wasmD)} |`);
console.log(`| fzstd (decoder only) | - | ${mbps(fz)} |`);
const zz = zlib as unknown as { zstdCompressSync?: (b: Uint8Array) => Buffer; zstdDecompressSync?: (b: Uint8Array) => Buffer };
if (zz.zstdCompressSync && zz.zstdDecompressSync) {
  const out: Buffer[] = [];
  const c = await time(() => {
    for (let at = 0; at < data.length; at += FRAME)
      out.push((zz.zstdCompressSync as (b: Uint8Array) => Buffer)(data.subarray(at, at + FRAME)));
  });
  const d = await time(() => {
    for (const f of out) (zz.zstdDecompressSync as (b: Uint8Array) => Buffer)(f);
  });
  console.log(`| node:zlib zstd | ${mbps(c)} | ${mbps(d)} |`);
} else console.log("| node:zlib zstd | not in this Node | - |");
const dir = mkdtempSync(path.join(tmpdir(), "cocoon-zstd-bench-"));
try {
  const file = path.join(dir, "data");
  writeFileSync(file, data);
  const c = await time(() => void execFileSync("zstd", ["-3", "-T1", "-q", "-f", file, "-o", `${file}.zst`]));
  const d = await time(() => void execFileSync("zstd", ["-d", "-q", "-f", `${file}.zst`, "-o", `${file}.out`]));
  console.log(`| zstd CLI -3 -T1 (floor) | ${mbps(c)} | ${mbps(d)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

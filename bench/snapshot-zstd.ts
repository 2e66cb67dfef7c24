/**
 * The zstd codec, measured: Node's own `zlib` zstd as the snapshot codec calls it (one-shot frames
 * with their content size, on the libuv thread pool) against the `zstd` CLI on the same bytes,
 * memory-like pages cut in 64 MiB chunks as a v2 push cuts them. The codec runs one chunk at a
 * time and then two at once (a push's default concurrency on this 2-core machine).
 *
 * Run: npx tsx bench/snapshot-zstd.ts [-- --mib 256 --level 3]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { memoryLike } from "../src/snapshot/snapshot-files.test-util.js";
import { decodeChunk } from "../src/snapshot/codec/zstd-decode.js";
import { compressFrame } from "../src/snapshot/codec/zstd-encode.js";
import { zstdCliAvailable } from "./zstd-cli.js";

const { values: args } = parseArgs({ options: { mib: { type: "string", default: "256" }, level: { type: "string", default: "3" } } });
const level = Number(args.level);
const data = memoryLike(Number(args.mib) * 2 ** 20, "bench");
const CHUNK = 64 << 20;
const slices: Uint8Array[] = [];
for (let at = 0; at < data.length; at += CHUNK) slices.push(data.subarray(at, at + CHUNK));
const mbps = (ms: number): string => (data.length / 1e6 / (ms / 1000)).toFixed(0);

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs `fn` over every slice, `width` at a time, keeping the output order. */
async function each<T>(items: readonly T[], width: number, fn: (item: T) => Promise<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

console.log(`| codec (node ${process.version}, level ${level}, 64 MiB chunks) | compress MB/s | decompress MB/s |`);
console.log("|---|---:|---:|");
for (const width of [1, 2]) {
  let frames: Uint8Array[] = [];
  const c = await time(async () => (frames = await each(slices, width, (s) => compressFrame(s, level))));
  const d = await time(() => each(frames, width, (f) => decodeChunk(f, CHUNK)));
  console.log(`| node:zlib zstd, ${width} chunk${width > 1 ? "s" : ""} at once | ${mbps(c)} | ${mbps(d)} |`);
}
if (zstdCliAvailable()) {
  const dir = mkdtempSync(path.join(tmpdir(), "cocoon-zstd-bench-"));
  try {
    const file = path.join(dir, "data");
    writeFileSync(file, data);
    const c = await time(async () => execFileSync("zstd", [`-${level}`, "-T1", "-q", "-f", file, "-o", `${file}.zst`]));
    const d = await time(async () => execFileSync("zstd", ["-d", "-q", "-f", `${file}.zst`, "-o", "/dev/null"]));
    console.log(`| zstd CLI -${level} -T1 (floor) | ${mbps(c)} | ${mbps(d)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else console.log("| zstd CLI | not installed (apt-get install zstd): no floor | - |");

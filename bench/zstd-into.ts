/**
 * What the one adapter to Node zlib's private parts buys (`src/snapshot/codec/zstd-into.ts`): a
 * pull's chunk decoding, dense 64 MiB chunks two at once, each decoded by `decodeChunkPieces`
 * into one of two reused buffers (the adapter) or, with the adapter's verdict forced to "no", into
 * pieces Node allocates (the public path every Node falls back to). Rounds alternate the two,
 * the order swapping each round; each output is dropped as soon as it is decoded, as a pull
 * drops it once written.
 *
 * Run: npx tsx --expose-gc bench/zstd-into.ts [-- --mib 512 --rounds 6]  (--mib: a multiple of 64)
 */
import { PerformanceObserver } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { decodeChunkPieces } from "../src/snapshot/codec/zstd-decode.js";
import { compressFrame } from "../src/snapshot/codec/zstd-encode.js";
import { judgeDecodeInto } from "../src/snapshot/codec/zstd-into.js";
import { median } from "./measure-async.js";
import { loadLine, runLine } from "./run-info.js";

const { values: args } = parseArgs({ options: { mib: { type: "string", default: "512" }, rounds: { type: "string", default: "6" } } });
const CHUNK = 64 << 20;
const ROUNDS = Number(args.rounds);
const data = denseMemory(Number(args.mib) * 2 ** 20);
/** Pages as a busy guest's memory compresses, about 3.5 to 1 at level 3: a random page in three, the rest text. */
function denseMemory(size: number): Buffer {
  const out = Buffer.alloc(size);
  let seed = 0x9e3779b9;
  for (let at = 0, page = 0; at < size; at += 4096, page++) {
    if (page % 3 === 0) {
      for (let i = at; i < at + 4096; i += 4) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        out.writeInt32LE(seed | 0, i);
      }
    } else out.fill(`page ${String(page)} of a guest's memory, `, at, at + 4096);
  }
  return out;
}

const frames: Uint8Array[] = [];
for (let at = 0; at < data.length; at += CHUNK) frames.push(await compressFrame(data.subarray(at, at + CHUNK), 3));
const buffers = [Buffer.allocUnsafeSlow(CHUNK + 1), Buffer.allocUnsafeSlow(CHUNK + 1)];

let collections = 0;
new PerformanceObserver((list) => (collections += list.getEntries().length)).observe({ entryTypes: ["gc"] });

/** Decodes every frame, two at once, each into its lane's buffer; returns MB/s, collections and CPU seconds. */
async function round(adapter: boolean): Promise<{ mbps: number; gcs: number; cpu: number }> {
  judgeDecodeInto(adapter ? undefined : {});
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const [gcs, cpu, start] = [collections, process.cpuUsage(), performance.now()];
  let decoded = 0;
  const lane = async (k: number): Promise<void> => {
    for (let i = k; i < frames.length; i += 2) {
      const pieces = await decodeChunkPieces(frames[i] as Uint8Array, CHUNK, buffers[k]);
      for (const piece of pieces) decoded += piece.length;
    }
  };
  await Promise.all([lane(0), lane(1)]);
  const seconds = (performance.now() - start) / 1000;
  if (decoded !== data.length) throw new Error(`decoded ${String(decoded)} bytes of ${String(data.length)}`);
  const used = process.cpuUsage(cpu);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { mbps: data.length / 1e6 / seconds, gcs: collections - gcs, cpu: (used.user + used.system) / 1e6 };
}

const figures = { adapter: [] as Awaited<ReturnType<typeof round>>[], public: [] as Awaited<ReturnType<typeof round>>[] };
await round(true);
await round(false);
for (let r = 0; r < ROUNDS; r++) {
  for (const adapter of r % 2 === 0 ? [true, false] : [false, true]) figures[adapter ? "adapter" : "public"].push(await round(adapter));
}
judgeDecodeInto(undefined);

const show = (values: number[], digits: number): string =>
  `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
console.log(runLine());
const compressed = frames.reduce((sum, f) => sum + f.length, 0) / 2 ** 20;
console.log(
  `${String(ROUNDS)} alternated rounds of ${String(frames.length)} dense 64 MiB chunks (level 3, ${compressed.toFixed(0)} MiB compressed), two at once, median [min–max]. ${loadLine()}\n`,
);
console.log("| decoding | MB/s | collections | CPU s |\n|---|---:|---:|---:|");
for (const [name, rows] of Object.entries(figures)) {
  const label = name === "adapter" ? "into two reused buffers (adapter)" : "into pieces Node allocates (public)";
  console.log(
    `| ${label} | ${show(
      rows.map((x) => x.mbps),
      0,
    )} | ${show(
      rows.map((x) => x.gcs),
      0,
    )} | ${show(
      rows.map((x) => x.cpu),
      2,
    )} |`,
  );
}
const ratio = figures.adapter.map((a, i) => a.mbps / (figures.public[i]?.mbps ?? NaN));
console.log(`\nadapter MB/s over public, per round: ${show(ratio, 2)}`);

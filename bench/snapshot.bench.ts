/**
 * Snapshot push and pull of a 1 GiB export on a real CNCF distribution registry, as ratios of this
 * machine's floor measured in the same run on the same bytes, and peak RSS against the budget.
 *
 * Exports (written once to a temp folder, removed at the end):
 * - dense: one `memory-ranges` file of memory-like pages (1 in 61 pages random);
 * - sparse: the same size, mostly zero pages, with cocoon's `COCOON.sparse.*` records.
 * Floors: `sha256sum` (every push and pull hashes each byte) and the `zstd` CLI (`-3 -T1`, and `-d`)
 * on the same export tar. Variants: v1 (one raw layer) and v2 (zstd 3, 64 MiB chunks,
 * concurrency 2, budget 512 MiB). Each operation runs in its own process (`bench/snapshot-run.ts`).
 *
 * Run: npm run bench:snapshot [-- --mib 1024]
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { envelopeFile, memoryLike } from "../src/snapshot/export-tar.test-util.js";
import { encodeTarHeader, TAR_TRAILER, tarPadding } from "../src/snapshot/tar-header.js";
import { startRegistry } from "../src/testing/index.js";

const { values: args } = parseArgs({ options: { mib: { type: "string", default: "1024" } } });
const MIB = Number(args.mib);
const SIZE = MIB * 2 ** 20;
const dir = mkdtempSync(path.join(tmpdir(), "cocoon-snapshot-bench-"));

async function writeExport(file: string, sparse: boolean): Promise<void> {
  const block = 1 << 20;
  const dense = memoryLike(block, "mem");
  const pax = sparse ? { "COCOON.sparse.map": `[{"o":0,"l":${SIZE}}]`, "COCOON.sparse.size": String(SIZE * 16) } : undefined;
  async function* stream(): AsyncGenerator<Uint8Array> {
    const env = envelopeFile("vm-bench");
    yield encodeTarHeader({ name: env.name, size: env.data.length, mode: 0o644, mtime: 0 });
    yield env.data;
    yield tarPadding(env.data.length);
    yield encodeTarHeader({ name: "memory-ranges", size: SIZE, mode: 0o600, mtime: 0, pax });
    for (let i = 0; i < SIZE / block; i++) {
      if (sparse && i % 16 !== 0) yield Buffer.alloc(block);
      else {
        const chunk = Buffer.from(dense);
        chunk.writeUInt32LE(i, 0); // every block differs, so no blob is deduplicated
        yield chunk;
      }
    }
    yield TAR_TRAILER;
  }
  await pipeline(Readable.from(stream()), createWriteStream(file));
}

function timed(cmd: string, argv: string[]): number {
  const start = performance.now();
  execFileSync(cmd, argv, { stdio: ["ignore", "ignore", "inherit"], shell: false });
  return (performance.now() - start) / 1000;
}

function run(op: string, host: string, tar: string, vm: string, knobs: object): { seconds: number; maxRssMiB: number } {
  const out = execFileSync("npx", ["tsx", "bench/snapshot-run.ts", op, host, tar, vm, JSON.stringify(knobs)], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop() ?? "{}") as { seconds: number; maxRssMiB: number };
}

const registry = await startRegistry();
try {
  console.log(`snapshot bench: ${MIB} MiB exports, node ${process.version}, registry ${registry.host}`);
  console.log("| export | variant | op | MB/s | floor | floor MB/s | ratio | peak RSS MiB | budget MiB |");
  console.log("|---|---|---|---:|---|---:|---:|---:|---:|");
  for (const kind of ["dense", "sparse"] as const) {
    const tar = path.join(dir, `${kind}.tar`);
    await writeExport(tar, kind === "sparse");
    const bytes = statSync(tar).size;
    const mb = bytes / 1e6;
    const sha = timed("sha256sum", [tar]);
    const zc = timed("sh", ["-c", `zstd -3 -T1 -q -c '${tar}' > '${tar}.zst'`]);
    const zd = timed("sh", ["-c", `zstd -d -q -c '${tar}.zst' > /dev/null`]);
    const variants = [
      { name: "v1", knobs: {}, pushFloor: ["sha256sum", sha], pullFloor: ["sha256sum", sha], budget: 0 },
      {
        name: "v2 zstd3 64MiB×2",
        knobs: { zstdLevel: 3, chunkSizeMiB: 64, concurrency: 2, memoryBudgetMiB: 512 },
        pushFloor: ["zstd -3 -T1", zc],
        pullFloor: ["zstd -d", zd],
        budget: 512,
      },
    ] as const;
    for (const v of variants) {
      const vm = `vm-bench-${kind}-${v.name.replace(/[^a-z0-9]+/gu, "-")}`;
      const push = run("push", registry.host, tar, vm, v.knobs);
      const pullKnobs = v.budget ? { memoryBudgetMiB: v.budget } : {};
      const pull = run("pull", registry.host, tar, vm, pullKnobs);
      for (const [op, r, [floorName, floorS]] of [
        ["push", push, v.pushFloor],
        ["pull", pull, v.pullFloor],
      ] as const) {
        const rate = mb / r.seconds;
        const floorRate = mb / floorS;
        console.log(
          `| ${kind} | ${v.name} | ${op} | ${rate.toFixed(0)} | ${floorName} | ${floorRate.toFixed(0)} | ${(rate / floorRate).toFixed(2)} | ${r.maxRssMiB.toFixed(0)} | ${v.budget || "-"} |`,
        );
      }
    }
    rmSync(tar, { force: true });
    rmSync(`${tar}.zst`, { force: true });
  }
} finally {
  await registry.stop();
  rmSync(dir, { recursive: true, force: true });
}

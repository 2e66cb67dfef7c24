/**
 * This tree's snapshot pull against an older commit's, alternated on the same exports and the
 * same registry: how much faster a wake is than it was, and what each holds in memory.
 *
 * The older commit's `src/` is unpacked from git into a temp folder (default `ed3f106`, the pull
 * of 2026-12-01 04:49 that issue 24 measured against Go); each side pulls in a process of its own
 * (`bench/pull-run.ts`), the two taking turns pair after pair, the first of a pair alternating.
 * Both pull the same manifests, pushed once by this tree: v1 (one raw layer) and v2 (zstd 3,
 * 64 MiB chunks), dense and sparse exports (`bench/snapshot-exports.ts`), a 512 MiB budget. A
 * pull writes into `/dev/null`, as in `bench:snapshot`, or into a file on disk (the virtual kubelet's case).
 * Speedup is the older side's warm seconds over this tree's, per pair: median [min–max].
 * CPU per pull is a process's user + system seconds in its warm rounds (median), per side: median
 * [min–max] over its processes, steadier than wall time on a shared machine. Peak RSS is each
 * side's largest over its processes, beside that of a process that loaded the same code and pulled
 * nothing, and of a bare `node`.
 *
 * Run: npm run bench:pull-baseline [-- --base ed3f106] [-- --size 1G] [-- --pairs 5] [-- --rounds 3] [-- --write]
 */
import { execFile, execFileSync } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile } from "../src/snapshot/index.js";
import { startRegistry } from "../src/testing/index.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { median } from "./measure-async.js";
import { spread } from "./run-info.js";
import { echoedLines } from "./report-table.js";
import { sizeMiB, writeExport } from "./snapshot-exports.js";
import { HWM_MIB, prepareSides } from "./transpile-tree.js";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "ed3f106" },
    size: { type: "string", default: "1G" },
    pairs: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    write: { type: "boolean", default: false },
  },
});
const SIZE = sizeMiB(args.size) * 2 ** 20;
const PAIRS = Number(args.pairs);
const ROUNDS = Number(args.rounds);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 2)) throw new Error(`--rounds ${args.rounds}: want 2 or more (one cold, the rest warm)`);
const BUDGET_MIB = 512;
const { base, dir, sides, runner } = await prepareSides(args.base, "cocoon-pull-baseline-", "bench/pull-run.ts");

interface Run {
  readonly seconds: number[];
  readonly cpuSeconds: number[];
  readonly maxRssMiB: number;
}

const execFileAsync = promisify(execFile);
async function pull(root: string, host: string, vm: string, rounds: number, output: string): Promise<Run> {
  const { stdout } = await execFileAsync(process.execPath, [runner, root, host, vm, String(BUDGET_MIB), String(rounds), output], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Run;
}

const { lines, say } = echoedLines();
const registry = await startRegistry();
try {
  const oci = new OCIRegistry(registry.host, { timeoutMs: 120_000 });
  const rows: { kind: string; variant: string; vm: string; mb: number; output: string }[] = [];
  for (const kind of ["dense", "sparse"] as const) {
    const tar = path.join(dir, `${kind}.tar`);
    await writeExport(tar, SIZE, kind === "sparse");
    const mb = statSync(tar).size / 1e6;
    for (const [variant, knobs] of [
      ["v1", {}],
      ["v2 zstd 3, 64 MiB", { zstdLevel: 3, chunkSizeMiB: 64, concurrency: 2 }],
    ] as const) {
      const vm = `vm-${kind}-${variant.slice(0, 2)}`;
      await pushSnapshot(readExportFile(tar), oci, { name: vm, memoryBudgetMiB: BUDGET_MIB, ...knobs });
      rows.push({ kind, variant, vm, mb, output: "/dev/null" });
      if (kind === "dense") rows.push({ kind, variant: `${variant}, into a file`, vm, mb, output: path.join(dir, "import.tar") });
    }
    rmSync(tar);
  }
  const idle = {
    base: await pull(sides.base, registry.host, rows[0]!.vm, 0, "/dev/null"),
    ours: await pull(sides.ours, registry.host, rows[0]!.vm, 0, "/dev/null"),
  };
  const bare = Number(execFileSync("node", ["-e", HWM_MIB], { encoding: "utf8" }));
  say(
    `${SIZE / 2 ** 20} MiB exports, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "?"}, registry (CNCF distribution) on the same cores, ${new Date().toISOString().slice(0, 16)}Z.`,
  );
  say(
    `Older side: \`${base}\`; this side: \`${execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}\`${execFileSync("git", ["status", "--porcelain", "src"], { encoding: "utf8" }).trim() ? " with uncommitted changes" : ""}. ${PAIRS} pairs of processes, ${ROUNDS} rounds each (1 cold, ${ROUNDS - 1} warm).`,
  );
  say("");
  say(
    "| export | variant | older warm MB/s | this warm MB/s | speedup, warm | speedup, cold | CPU s per warm pull, older / this | peak RSS MiB, older / this |",
  );
  say("|---|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    const warm: Record<"base" | "ours", number[]> = { base: [], ours: [] };
    const cold: Record<"base" | "ours", number[]> = { base: [], ours: [] };
    const cpu: Record<"base" | "ours", number[]> = { base: [], ours: [] };
    const rss = { base: 0, ours: 0 };
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const side of pair % 2 === 0 ? (["base", "ours"] as const) : (["ours", "base"] as const)) {
        const r = await pull(sides[side], registry.host, row.vm, ROUNDS, row.output);
        warm[side].push(median(r.seconds.slice(1)));
        cold[side].push(r.seconds[0]!);
        cpu[side].push(median(r.cpuSeconds.slice(1)));
        rss[side] = Math.max(rss[side], r.maxRssMiB);
      }
    }
    const speedup = (s: Record<"base" | "ours", number[]>): number[] => s.base.map((b, i) => b / s.ours[i]!);
    say(
      `| ${row.kind} | ${row.variant} | ${(row.mb / median(warm.base)).toFixed(0)} | ${(row.mb / median(warm.ours)).toFixed(0)} | **${spread(speedup(warm))}** | ${spread(speedup(cold))} | ${spread(cpu.base)} / ${spread(cpu.ours)} | ${rss.base.toFixed(0)} / ${rss.ours.toFixed(0)} |`,
    );
  }
  say("");
  say(
    `Peak RSS of a process that loads the same code and pulls nothing: ${idle.base.maxRssMiB.toFixed(0)} MiB older, ${idle.ours.maxRssMiB.toFixed(0)} MiB this; a bare \`node\`: ${bare.toFixed(0)} MiB. Budget: ${BUDGET_MIB} MiB.`,
  );
  say("");
  say(
    "One run, indicative (the machine is shared). Each side pulls in a process of its own, transpiled and run as plain `node`; the two take turns, the first of a pair alternating. Speedup: the older side's seconds over this side's, per pair, median [min–max] (warm: the median of a process's later rounds; cold: its first). Peak RSS: `VmHWM`, the largest over a side's processes. `ed3f106` is the pull issue 24 measured against Go.",
  );
  if (args.write)
    writeBenchmarkSection("pull-baseline", "Snapshot pull against an older commit (`npm run bench:pull-baseline`)", lines.join("\n"));
} finally {
  rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}

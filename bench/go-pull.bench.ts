/**
 * v2 snapshot pulls, this tree against the real Go cocoon-common (issue 37, goal 2: time at Go's or
 * better within a 512 MiB budget), alternated on the same registry and the same artifacts.
 *
 * This tree pushes each export once as v2 (zstd 3, 64 MiB chunks): dense and sparse
 * (`bench/snapshot-exports.ts`). Then each side pulls `<vm>:latest` in processes of its own, the
 * first of a pair alternating: TS through `bench/pull-run.ts` on the built package (`dist/`, as a
 * consumer loads it: run `npm run build` first; `--src` takes this tree's `src` transpiled file by
 * file instead), Go through a binary built outside this repository (below). Per pair and side:
 * one process of `--rounds` pulls (the first cold, the others warm) and one process of a single
 * pull. Both sides give the pull a 512 MiB `MemoryBudgetMiB` and Go's default prefetch (8), and
 * write the import tar into `/dev/null` (`--file`: also into a file on disk, for the dense export).
 * In-call seconds time `GetManifest` and the pull call; whole-process seconds time the process from
 * spawn to exit, as this script sees it. Ratios are TS over Go, per pair, median [min–max]. Peak
 * RSS is `VmHWM`. Each round's bytes must agree between the sides, or the run stops.
 *
 * The Go program (not in this repository; build it from the Go source, e.g. v0.3.0). A `main`
 * package in a module of its own that requires `github.com/cocoonstack/cocoon-common` with a
 * `replace` to a local checkout (the module proxy does not serve it), built with `go build`. It:
 * - takes flags `-registry HOST` (e.g. `127.0.0.1:5000`), `-name REPO`, `-tag latest`,
 *   `-budget-mib 512`, `-rounds N` (0: load and pull nothing) and `-output PATH`
 *   (default `/dev/null`; another path is opened with `O_TRUNC` each round and removed after it);
 * - makes one client, `oci.NewOCIRegistry(HOST, authn.DefaultKeychain)` (go-containerregistry
 *   speaks plain HTTP to a loopback host), and per round opens the output, then times
 *   `reg.GetManifest(ctx, REPO, TAG)` and `snapshot.Stream(ctx, raw, reg, snapshot.StreamOptions{
 *   Name: REPO, Writer: w, MemoryBudgetMiB: BUDGET})` and the output's `Close`, where `w` counts
 *   the bytes written to the output file;
 * - measures each round's wall seconds and CPU seconds (the `getrusage(RUSAGE_SELF)` user +
 *   system delta), and at the end reads `VmHWM` from `/proc/self/status`;
 * - prints one JSON line and exits 0, or exits non-zero on a failed pull:
 *   `{"seconds":[…],"cpuSeconds":[…],"bytes":[…],"maxRssMiB":…,"processCpuSeconds":…}`
 *   (`processCpuSeconds`: `getrusage` user + system at exit, the whole process).
 *
 * Run: npm run build && COCOON_GO_PULL=/path/to/go-v2-pull npm run bench:go-pull [-- --size 1G] [-- --pairs 5] [-- --rounds 3] [-- --file] [-- --src] [-- --write]
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { OCIRegistry } from "../src/oci/index.js";
import { pushSnapshot, readExportFile } from "../src/snapshot/index.js";
import { startRegistry } from "../src/testing/index.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { GO_PULL_NOTES, goBuildLine, type PullRun, pullRowsReport, type Side, type SidePulls } from "./go-pull-report.js";
import { echoedLines } from "./report-table.js";
import { loadLine, runLine } from "./run-info.js";
import { sizeMiB, writeExport } from "./snapshot-exports.js";
import { HWM_MIB, transpileRunner, transpileTree } from "./transpile-tree.js";

const { values: args } = parseArgs({
  options: {
    go: { type: "string", default: process.env["COCOON_GO_PULL"] ?? "" },
    size: { type: "string", default: "1G" },
    pairs: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    file: { type: "boolean", default: false },
    src: { type: "boolean", default: false },
    write: { type: "boolean", default: false },
  },
});
if (!args.go)
  throw new Error("--go: want the Go pull binary's path (or COCOON_GO_PULL); the header of bench/go-pull.bench.ts says how to build it");
const GO = path.resolve(args.go);
const SIZE = sizeMiB(args.size) * 2 ** 20;
const PAIRS = Number(args.pairs);
const ROUNDS = Number(args.rounds);
if (!(Number.isInteger(PAIRS) && PAIRS >= 1)) throw new Error(`--pairs ${args.pairs}: want 1 or more`);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 2)) throw new Error(`--rounds ${args.rounds}: want 2 or more (one cold, the rest warm)`);
const BUDGET_MIB = 512;

/** The latest modification time (ms) of a file under `folder`. */
function newestUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((t, e) => Math.max(t, statSync(path.join(e.parentPath, e.name)).mtimeMs), 0);
}

const dist = path.resolve("dist");
if (
  !args.src &&
  (!existsSync(path.join(dist, "snapshot/index.js")) || newestUnder("src") > statSync(path.join(dist, "snapshot/index.js")).mtimeMs)
)
  throw new Error("dist/ is missing or older than src/: run `npm run build` first (or pass --src)");
const dir = mkdtempSync(path.join(tmpdir(), "cocoon-go-pull-"));
symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
const tsRoot = args.src ? path.join(dir, "ours-js") : dist;
if (args.src) transpileTree(path.resolve("src"), tsRoot);
const tsRunner = path.join(dir, "pull-run.mjs");
transpileRunner("bench/pull-run.ts", tsRunner);

const execFileAsync = promisify(execFile);
/** One process of `rounds` pulls by one side, timed from spawn to exit. Asynchronous: the registry's log pipe must keep draining. */
async function pull(side: Side, host: string, vm: string, rounds: number, output: string): Promise<PullRun> {
  const [file, argv] =
    side === "go"
      ? [GO, ["-registry", host, "-name", vm, "-budget-mib", String(BUDGET_MIB), "-rounds", String(rounds), "-output", output]]
      : [process.execPath, [tsRunner, tsRoot, host, vm, String(BUDGET_MIB), String(rounds), output]];
  const started = performance.now();
  const { stdout } = await execFileAsync(file, argv, { encoding: "utf8", maxBuffer: 1 << 24 });
  const wallSeconds = (performance.now() - started) / 1000;
  return { ...(JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Omit<PullRun, "wallSeconds">), wallSeconds };
}

const { lines, say } = echoedLines();
const registry = await startRegistry();
try {
  const oci = new OCIRegistry(registry.host, { timeoutMs: 120_000 });
  const rows: { kind: string; output: string; vm: string; mb: number; runs: SidePulls }[] = [];
  for (const kind of ["dense", "sparse"] as const) {
    const tar = path.join(dir, `${kind}.tar`);
    await writeExport(tar, SIZE, kind === "sparse");
    const mb = statSync(tar).size / 1e6;
    const vm = `vm-${kind}-v2`;
    await pushSnapshot(readExportFile(tar), oci, { name: vm, zstdLevel: 3, chunkSizeMiB: 64, concurrency: 2, memoryBudgetMiB: BUDGET_MIB });
    rmSync(tar);
    rows.push({ kind, output: "/dev/null", vm, mb, runs: { go: [], ts: [] } });
    if (args.file && kind === "dense") rows.push({ kind, output: path.join(dir, "import.tar"), vm, mb, runs: { go: [], ts: [] } });
  }
  const idle = {
    go: await pull("go", registry.host, rows[0]!.vm, 0, "/dev/null"),
    ts: await pull("ts", registry.host, rows[0]!.vm, 0, "/dev/null"),
  };
  const bare = Number(execFileSync("node", ["-e", HWM_MIB], { encoding: "utf8" }));
  for (const row of rows) {
    for (let pair = 0; pair < PAIRS; pair++) {
      const order: readonly Side[] = pair % 2 === 0 ? ["go", "ts"] : ["ts", "go"];
      for (const rounds of [ROUNDS, 1]) {
        for (const side of order) {
          const run = await pull(side, registry.host, row.vm, rounds, row.output);
          const expected = row.runs.go[0]?.bytes[0] ?? row.runs.ts[0]?.bytes[0] ?? run.bytes[0];
          if (run.bytes.some((b) => b !== expected))
            throw new Error(`${row.vm}: ${side} wrote ${run.bytes.join(", ")} bytes, the other side ${expected}`);
          row.runs[side].push(run);
        }
      }
      process.stderr.write(`${row.kind} ${row.output}: pair ${pair + 1}/${PAIRS} done\n`);
    }
  }
  say(runLine(goBuildLine(GO)));
  say(
    `${SIZE / 2 ** 20} MiB exports pushed once by this tree as v2 (zstd 3, 64 MiB chunks); registry (CNCF distribution) on the same cores. This side: \`${execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}\` (${args.src ? "`src` transpiled file by file" : "the built `dist`"})${execFileSync("git", ["status", "--porcelain", "src"], { encoding: "utf8" }).trim() ? " with uncommitted changes" : ""}; ${cpus().length} cores. ${PAIRS} pairs of processes per row, each side a process of ${ROUNDS} pulls (1 cold, ${ROUNDS - 1} warm) and one of a single pull.`,
  );
  say(
    `Command: \`npm run build && COCOON_GO_PULL=/path/to/go-v2-pull npm run bench:go-pull -- --size ${args.size} --pairs ${PAIRS} --rounds ${ROUNDS}${args.file ? " --file" : ""}${args.src ? " --src" : ""} --write\`.`,
  );
  say("");
  for (const line of pullRowsReport(rows, ROUNDS, BUDGET_MIB)) say(line);
  say("");
  say(
    `Peak RSS of a process that loads the code and pulls nothing: Go ${idle.go.maxRssMiB.toFixed(0)} MiB, TS ${idle.ts.maxRssMiB.toFixed(0)} MiB; a bare \`node\`: ${bare.toFixed(0)} MiB.`,
  );
  say(loadLine());
  say("");
  for (const line of GO_PULL_NOTES) say(line);
  if (args.write) writeBenchmarkSection("go-pull", "v2 snapshot pull against Go (`npm run bench:go-pull`)", lines.join("\n"));
} finally {
  rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}

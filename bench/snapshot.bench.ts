/**
 * Snapshot push and pull of a 1 GiB export on a real CNCF distribution registry, as ratios of this
 * machine's floor measured in the same run on the same bytes, peak RSS against the memory budget,
 * and the CPU the client and the registry spent (the registry runs on the same cores and hashes
 * and stores every uploaded byte, so its CPU time shows what limits a ratio).
 *
 * Exports (written once to a temp folder, removed at the end):
 * - dense: one `memory-ranges` file of 4 KiB pages, one in four random, the others a text motif
 *   naming the page (zstd -3 takes it to about a third; no two MiB alike, so nothing dedups);
 * - sparse: the same size, 15 in 16 MiB zero, with cocoon's `COCOON.sparse.*` records.
 * Floors do the operation's work with the CLI tools on the same export tar: v1 push and pull hash
 * each byte (`sha256sum`); a v2 push compresses and hashes the compressed bytes
 * (`zstd -<level> -T1 -c | tee FILE.zst | sha256sum`, the two tools running at once as ours may); a v2
 * pull hashes the compressed bytes and decodes them (`tee >(sha256sum) < FILE.zst | zstd -d`). The
 * `zstd` step alone is kept beside each v2 floor for reference. Variants: v1 (one raw layer) and v2 (zstd, 64 MiB chunks,
 * concurrency 2), both with a 512 MiB memory budget. Each operation runs `--rounds` times in a
 * process of its own (`bench/snapshot-run.ts`): the first round cold, the others warm, as in the
 * virtual kubelet, a long-lived process; the table shows the cold round and the median warm one.
 *
 * Run: npm run bench:snapshot [-- --size 256M] [-- --rounds 4] [-- --write]   (--write updates BENCHMARKS.md's snapshot section)
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { startRegistry } from "../src/testing/index.js";
import { echoedLines } from "./report-table.js";
import { sizeMiB, writeExport } from "./snapshot-exports.js";
import { zstdCliAvailable } from "./zstd-cli.js";

const { values: args } = parseArgs({
  options: {
    size: { type: "string", default: "1G" },
    level: { type: "string", default: "3" },
    rounds: { type: "string", default: "4" },
    write: { type: "boolean", default: false },
  },
});
const MIB = sizeMiB(args.size);
const SIZE = MIB * 2 ** 20;
const LEVEL = Number(args.level);
const ROUNDS = Number(args.rounds);
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 2)) throw new Error(`--rounds ${args.rounds}: want 2 or more (one cold, the rest warm)`);
const BUDGET_MIB = 512;
const dir = mkdtempSync(path.join(tmpdir(), "cocoon-snapshot-bench-"));

/** Wall and CPU seconds of a bash command (the CPU from bash's `times` for its children, process substitutions waited for). */
function timed(command: string): { seconds: number; cpuSeconds: number } {
  const start = performance.now();
  const out = execFileSync("bash", ["-c", `${command}; wait; times`], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const seconds = (performance.now() - start) / 1000;
  const children = out.trim().split("\n").pop() ?? "";
  const cpuSeconds = [...children.matchAll(/(\d+)m([\d.]+)s/gu)].reduce((n, m) => n + Number(m[1]) * 60 + Number(m[2]), 0);
  return { seconds, cpuSeconds };
}

interface Round {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly registryCpuSeconds: number;
}

interface RunResult {
  readonly cold: Round;
  /** The warm round of median time. */
  readonly warm: Round;
  readonly maxRssMiB: number;
}

const execFileAsync = promisify(execFile);

/** Runs one operation's rounds in their own process. Asynchronously: the registry's log pipe must keep draining, or the registry stalls. */
async function run(
  op: string,
  host: string,
  registryPid: number,
  tar: string,
  vm: string,
  knobs: object,
  env: Readonly<Record<string, string>> = {},
): Promise<RunResult | { error: string }> {
  let out: string;
  try {
    ({ stdout: out } = await execFileAsync(
      "npx",
      ["tsx", "bench/snapshot-run.ts", op, host, String(registryPid), tar, vm, JSON.stringify(knobs), String(ROUNDS)],
      { encoding: "utf8", maxBuffer: 1 << 24, env: { ...process.env, ...env } },
    ));
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? err);
    return { error: /(CocoonError|RegistryError|Error): [^\n]*/u.exec(stderr)?.[0] ?? "failed" };
  }
  const { rounds, maxRssMiB } = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { rounds: Round[]; maxRssMiB: number };
  const warm = rounds.slice(1).sort((a, b) => a.seconds - b.seconds);
  return { cold: rounds[0] as Round, warm: warm[Math.floor((warm.length - 1) / 2)] as Round, maxRssMiB };
}

const haveZstd = zstdCliAvailable();
const { lines, say } = echoedLines();
const registry = await startRegistry();
try {
  say(
    `${MIB} MiB exports, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, registry (CNCF distribution) on the same cores, ${new Date().toISOString().slice(0, 10)}.`,
  );
  if (!haveZstd) say("**The zstd CLI is not installed (`apt-get install zstd`): v2 rows have no floor.**");
  say("");
  say(
    "| export | variant | op | floor | floor MB/s | cold MB/s | cold ratio | warm MB/s | warm ratio | zstd alone MB/s | peak RSS / budget MiB | client CPU s | floor CPU s | registry CPU s |",
  );
  say("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const kind of ["dense", "sparse"] as const) {
    const tar = path.join(dir, `${kind}.tar`);
    await writeExport(tar, SIZE, kind === "sparse");
    const mb = statSync(tar).size / 1e6;
    const none = { seconds: Number.NaN, cpuSeconds: Number.NaN };
    const sha = timed(`sha256sum '${tar}' > /dev/null`);
    const zc = haveZstd ? timed(`zstd -${LEVEL} -T1 -q -c '${tar}' > /dev/null`) : none;
    const zcHashed = haveZstd ? timed(`zstd -${LEVEL} -T1 -q -c '${tar}' | tee '${tar}.zst' | sha256sum > /dev/null`) : none;
    const zd = haveZstd ? timed(`zstd -d -q -c '${tar}.zst' > /dev/null`) : none;
    const zdHashed = haveZstd ? timed(`tee >(sha256sum > /dev/null) < '${tar}.zst' | zstd -d -q > /dev/null`) : none;
    const v2 = {
      knobs: { zstdLevel: LEVEL, chunkSizeMiB: 64, concurrency: 2 },
      pushFloor: [`zstd -${LEVEL} -T1 \\| sha256sum`, zcHashed, zc],
      pullFloor: ["sha256sum & zstd -d", zdHashed, zd],
    } as const;
    const variants = [
      { name: "v1", ops: ["push", "pull"], knobs: {}, pushFloor: ["sha256sum", sha, none], pullFloor: ["sha256sum", sha, none] },
      { name: `v2 zstd ${LEVEL}, 64 MiB × 2`, ops: ["push", "pull"], ...v2 },
      { name: "v2, glibc huge pages", ops: ["push", "pull"], env: { GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" }, ...v2 },
      { name: "v2 without a registry", ops: ["push-local", "pull-local"], ...v2 },
    ] as const;
    for (const v of variants) {
      const vm = `vm-bench-${kind}-${v.name.replace(/[^a-z0-9]+/gu, "-")}`;
      const budget = { memoryBudgetMiB: BUDGET_MIB };
      const env = "env" in v ? v.env : {};
      const push = await run(v.ops[0], registry.host, registry.pid, tar, vm, { ...v.knobs, ...budget }, env);
      // A pull's only knob is the budget (its `concurrency` is the prefetch, left at Go's default); the registry-less pull pushes first.
      const pull = await run(v.ops[1], registry.host, registry.pid, tar, vm, v.ops[1] === "pull" ? budget : { ...v.knobs, ...budget }, env);
      for (const [op, r, [floorName, floor, tool]] of [
        ["push", push, v.pushFloor],
        ["pull", pull, v.pullFloor],
      ] as const) {
        if ("error" in r) {
          say(`| ${kind} | ${v.name} | ${op} | failed: ${r.error.replaceAll("|", "/")} | | | | | | | | | | |`);
          continue;
        }
        const floorRate = mb / floor.seconds;
        const ratio = (round: Round): string => (Number.isNaN(floorRate) ? "-" : (mb / round.seconds / floorRate).toFixed(2));
        const floorText = Number.isNaN(floorRate) ? "-" : floorRate.toFixed(0);
        const toolText = Number.isNaN(tool.seconds) ? "-" : (mb / tool.seconds).toFixed(0);
        say(
          `| ${kind} | ${v.name} | ${op} | ${floorName} | ${floorText} | ${(mb / r.cold.seconds).toFixed(0)} | ${ratio(r.cold)} | ${(mb / r.warm.seconds).toFixed(0)} | **${ratio(r.warm)}** | ${toolText} | ${v.ops[0] === "push" ? `${r.maxRssMiB.toFixed(0)} / ${BUDGET_MIB}` : "-"} | ${r.cold.cpuSeconds.toFixed(1)} / ${r.warm.cpuSeconds.toFixed(1)} | ${floor.cpuSeconds.toFixed(1)} | ${r.cold.registryCpuSeconds.toFixed(1)} / ${r.warm.registryCpuSeconds.toFixed(1)} |`,
        );
      }
    }
    rmSync(tar, { force: true });
    rmSync(`${tar}.zst`, { force: true });
  }
  if (args.write) writeSection(lines);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await registry.stop();
}

/** The kernel's transparent huge page mode (`always`, `madvise` or `never`), as `/sys` shows it selected. */
function thpMode(): string {
  try {
    return /\[(\w+)\]/u.exec(readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8"))?.[1] ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Replaces BENCHMARKS.md's snapshot section (between its markers), appending it when absent; the rest of the file is left as it is. */
function writeSection(body: readonly string[]): void {
  const file = "BENCHMARKS.md";
  const begin = "<!-- begin snapshot -->";
  const end = "<!-- end snapshot -->";
  const notes = [
    "",
    "One run, indicative (the machine is shared). MB/s counts the export tar's bytes; a ratio is MB/s over the floor's on the same",
    `bytes, measured in the same run. Each operation ran ${ROUNDS} times in one process: cold is the first round (a fresh process),`,
    "warm the median of the others (the virtual kubelet is a long-lived process; a push round goes to a repository of its own, so it finds",
    "no blob already there). CPU s (cold / warm): the push or pull process (all threads), the floor command, and the registry",
    "process during that round: the registry runs on the same cores and hashes and stores each uploaded byte itself. Peak RSS is",
    "the operation's process over all its rounds, against `memoryBudgetMiB`. Exports: dense (4 KiB pages, one in four random) and",
    "sparse (15 in 16 MiB zero). A pull writes its import tar into `/dev/null` through an `fs.WriteStream`, as the floor's `zstd -d`",
    "writes into `/dev/null`.",
    "",
    "Each floor is the operation's work done by the CLI tools on the same export tar `FILE`:",
    "",
    "- v1 push and pull (`sha256sum`): `sha256sum FILE`;",
    `- v2 push (\`zstd -${LEVEL} -T1 \\| sha256sum\`): \`zstd -${LEVEL} -T1 -c FILE | tee FILE.zst | sha256sum\` (compress, hash the compressed bytes, both at once);`,
    "- v2 pull (`sha256sum & zstd -d`): `tee >(sha256sum) < FILE.zst | zstd -d > /dev/null` (hash the compressed bytes and decode them, both at once);",
    `- zstd alone: \`zstd -${LEVEL} -T1 -c FILE > /dev/null\` (push) and \`zstd -d -c FILE.zst > /dev/null\` (pull), for reference.`,
    "",
    "The v2, glibc huge pages rows run the v2 push and pull with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` in their environment (glibc",
    "2.35 or later): glibc's allocator then asks for transparent huge pages on the large buffers it maps, such as a chunk's 64 MiB",
    `decode buffer, so the first write to each costs one fault per 2 MiB instead of one per 4 KiB (this kernel's THP mode: ${thpMode()}).`,
    "",
    "The v2 without a registry rows push and pull with the same knobs through the library's own `pushSnapshot` and `streamSnapshot`, on a",
    "registry that keeps blobs in memory (`bench/snapshot-local.ts`): everything but HTTP and the registry process. They bound what",
    "the library can reach here. Their peak RSS is not shown: the in-memory registry holds every blob.",
  ];
  const section = [begin, "## Snapshot push and pull (`npm run bench:snapshot`)", "", ...body, ...notes, end].join("\n");
  const text = readFileSync(file, "utf8");
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  const next = from >= 0 && to > from ? text.slice(0, from) + section + text.slice(to + end.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}

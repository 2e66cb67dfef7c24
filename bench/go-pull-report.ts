/** The tables of `bench/go-pull.bench.ts`: TS over Go per pair, and peak RSS against the budget. */
import { execFileSync } from "node:child_process";
import { median } from "./measure-async.js";
import { spread } from "./run-info.js";

/** The two sides of a run. */
export type Side = "go" | "ts";

/** What one pull process printed (`bench/pull-run.ts` or the Go program), with its spawn-to-exit seconds. */
export interface PullRun {
  readonly seconds: number[];
  readonly cpuSeconds: number[];
  readonly bytes: number[];
  readonly maxRssMiB: number;
  readonly processCpuSeconds: number;
  readonly wallSeconds: number;
}

/** Each side's processes of one row, pair by pair: of `rounds` pulls at even places, of one pull at odd. */
export type SidePulls = Record<Side, PullRun[]>;

/** The Go version and cocoon-common version a Go binary was built with (`go version -m`), or `unknown`. */
export function goBuildLine(binary: string): string {
  try {
    const text = execFileSync(process.env["GO"] ?? "go", ["version", "-m", binary], { encoding: "utf8" });
    const go = /^\S+: (go\S+)/u.exec(text)?.[1] ?? "unknown";
    const common = /^\s+dep\s+github\.com\/cocoonstack\/cocoon-common\s+(\S+)/mu.exec(text)?.[1] ?? "unknown";
    return `Go side: cocoon-common ${common}, built with ${go}`;
  } catch {
    return "Go side: version unknown (no `go` to read the binary's build info)";
  }
}

type Measure = readonly [name: string, seconds: (many: PullRun, one: PullRun) => number, cpu: (many: PullRun, one: PullRun) => number];

/** The rows of one export: the pull call (cold, warm) and the whole process (one pull, `rounds` pulls). */
function measures(rounds: number): Measure[] {
  const warm = (of: readonly number[]): number => median(of.slice(1));
  return [
    ["in the call, cold", (many) => many.seconds[0]!, (many) => many.cpuSeconds[0]!],
    ["in the call, warm", (many) => warm(many.seconds), (many) => warm(many.cpuSeconds)],
    ["whole process, 1 pull", (_, one) => one.wallSeconds, (_, one) => one.processCpuSeconds],
    [`whole process, ${rounds} pulls`, (many) => many.wallSeconds, (many) => many.processCpuSeconds],
  ];
}

/** One row of the tables: an export pulled into one output, and each side's processes. */
export interface PullRow {
  readonly kind: string;
  readonly output: string;
  readonly runs: SidePulls;
}

/** The Markdown tables: time and CPU, TS over Go per pair; then peak RSS per side against `budgetMiB`. */
export function pullRowsReport(rows: readonly PullRow[], rounds: number, budgetMiB: number): string[] {
  const lines = ["| export | into | measure | Go s | TS s | TS/Go | CPU s, Go / TS |", "|---|---|---|---:|---:|---:|---:|"];
  const into = (output: string): string => (output === "/dev/null" ? "`/dev/null`" : "a file");
  for (const row of rows) {
    const pairs = row.runs.go.length / 2;
    for (const [name, seconds, cpu] of measures(rounds)) {
      const figures = (side: Side, of: Measure[1]): number[] =>
        Array.from({ length: pairs }, (_, p) => of(row.runs[side][2 * p]!, row.runs[side][2 * p + 1]!));
      const go = figures("go", seconds);
      const ts = figures("ts", seconds);
      lines.push(
        `| ${row.kind} | ${into(row.output)} | ${name} | ${median(go).toFixed(2)} | ${median(ts).toFixed(2)} | **${spread(ts.map((t, i) => t / go[i]!))}** | ${median(figures("go", cpu)).toFixed(2)} / ${median(figures("ts", cpu)).toFixed(2)} |`,
      );
    }
  }
  lines.push(
    "",
    `| export | into | peak RSS MiB, Go | peak RSS MiB, TS | processes over ${budgetMiB} MiB, Go / TS |`,
    "|---|---|---:|---:|---:|",
  );
  for (const row of rows) {
    const rss = (side: Side): number[] => row.runs[side].map((r) => r.maxRssMiB);
    const over = (side: Side): string => `${rss(side).filter((m) => m > budgetMiB).length} of ${rss(side).length}`;
    lines.push(`| ${row.kind} | ${into(row.output)} | ${spread(rss("go"), 0)} | ${spread(rss("ts"), 0)} | ${over("go")} / ${over("ts")} |`);
  }
  return lines;
}

/** How the rows are measured, and how to build the Go program: the prose under the tables. */
export const GO_PULL_NOTES: readonly string[] = [
  "Indicative: the machine is shared with other work (load average above), so wall seconds carry its noise; CPU seconds are steadier. In the call: `GetManifest` and the pull (Go `snapshot.Stream`, TS `streamSnapshot`), timed inside the process; cold is a process's first pull, warm the median of its later ones. Whole process: spawn to exit as the bench sees it, for a process of one pull and for one of all its pulls (TS: Node's start and the package's import; Go: a static binary). TS/Go: per pair, median [min–max]. CPU: user + system of the process's threads (in the call: that round's; whole process: all of it), median over the pairs. Peak RSS: `VmHWM` of each process, median [min–max] over all of a side's processes; the budget is the `MemoryBudgetMiB` both sides were given. Both write the import tar into `/dev/null` (a file: into a file on the same disk, removed after each round); the bench stops if the two sides' byte counts differ.",
  "",
  "The Go program is not in this repository. To build it: unpack the Go source of cocoon-common at a tag (`git archive v0.3.0` of `github.com/cocoonstack/cocoon-common`) into a folder `go-cocoon`; beside it make a folder with a `go.mod` (`module example.invalid/go-v2-pull`, `go 1.26.5`, `require github.com/cocoonstack/cocoon-common v0.3.0`, `replace github.com/cocoonstack/cocoon-common => ../go-cocoon`) and a `main.go` as the header of `bench/go-pull.bench.ts` describes: flags `-registry`, `-name`, `-tag`, `-budget-mib`, `-rounds`, `-output`; one `oci.NewOCIRegistry(host, authn.DefaultKeychain)`; per round `GetManifest` then `snapshot.Stream` with `MemoryBudgetMiB` set and Go's default `Concurrency`; one JSON line at the end. Then `go mod tidy && go build -trimpath -o go-v2-pull .` and pass the binary as `COCOON_GO_PULL` (or `--go`). The module proxy serves every dependency (go-containerregistry, klauspost/compress, projecteru2/core, the `k8s.io` modules) but cocoon-common itself; its `snapshot` and `oci` packages are used unchanged.",
];

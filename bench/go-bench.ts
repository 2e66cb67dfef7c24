/**
 * The Go side of bench/compare.ts: builds the test binary of conformance/go/cocoon (the package
 * that re-declares cocoon-common for the conformance oracle, with the benchmarks beside it) once,
 * asks it what each case returns and what the reconcile pass costs in memory, and runs its
 * benchmarks for one round.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const GO_DIR = fileURLToPath(new URL("../conformance/go/cocoon/", import.meta.url));
const GO = process.env["GO"] ?? "go";
/** One directory per run, so two runs (e.g. from two worktrees) never share a binary. */
const WORK_DIR = mkdtempSync(path.join(tmpdir(), "cocoon-common-bench-"));

/** The Go toolchain's version line, e.g. `go1.26.8 linux/amd64`. */
export function goVersion(): string {
  return execFileSync(GO, ["version"], { encoding: "utf8" })
    .trim()
    .replace(/^go version /, "");
}

/** Compiles conformance/go/cocoon into a test binary (Go's build cache makes reruns fast); returns its path. */
export function buildGoBench(): string {
  const binary = path.join(WORK_DIR, "bench.test");
  execFileSync(GO, ["test", "-c", "-o", binary, "."], { cwd: GO_DIR, stdio: ["ignore", "inherit", "inherit"] });
  return binary;
}

const env = (fixture: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  COCOON_BENCH_FIXTURE: fixture,
  ...extra,
});

/** What the Go functions return on the fixture (Go's TestWriteResults), parsed. */
export function goResults(binary: string, fixture: string): unknown {
  const out = path.join(WORK_DIR, "results.json");
  execFileSync(binary, ["-test.run", "^TestWriteResults$", "-test.count", "1"], {
    env: env(fixture, { COCOON_BENCH_RESULTS: out }),
    stdio: "ignore",
  });
  return JSON.parse(readFileSync(out, "utf8"));
}

/** What one size of Go's reconcile pass costs in memory (TestReconcileMemory), in bytes. */
export interface GoReconcileMemory {
  readonly pods: number;
  /** The live heap's growth when the pods are built, after a full collection, over N. */
  readonly heapPerPod: number;
  /** Bytes one pass over the N pods allocates (MemStats.TotalAlloc delta). */
  readonly allocatedPerPass: number;
  /** Objects one pass allocates (MemStats.Mallocs delta). */
  readonly allocsPerPass: number;
}

/** Go's memory of the reconcile pass, one entry per size in the fixture's `reconcilePods`. */
export function goReconcileMemory(binary: string, fixture: string): GoReconcileMemory[] {
  const out = path.join(WORK_DIR, "memory.json");
  execFileSync(binary, ["-test.run", "^TestReconcileMemory$", "-test.count", "1"], {
    env: env(fixture, { COCOON_BENCH_MEMORY: out }),
    stdio: "ignore",
  });
  return JSON.parse(readFileSync(out, "utf8")) as GoReconcileMemory[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Runs one Go benchmark (`ParseVMSpec`, or `Quantity/512Mi` for a sub-benchmark) `count` times
 * for about `benchtimeMs` each; returns the ns per op of every run.
 */
export function goCase(binary: string, fixture: string, name: string, benchtimeMs: number, count: number): number[] {
  const pattern = name
    .split("/")
    .map((part, i) => `^${i === 0 ? "Benchmark" : ""}${escapeRegExp(part)}$`)
    .join("/");
  const text = execFileSync(
    binary,
    ["-test.run", "^$", "-test.bench", pattern, "-test.benchtime", `${benchtimeMs}ms`, "-test.count", String(count)],
    {
      env: env(fixture),
      encoding: "utf8",
    },
  );
  const figures = [...text.matchAll(/^Benchmark\S+\s+\d+\s+([\d.]+) ns\/op/gm)].map((m) => Number(m[1]));
  if (figures.length !== count)
    throw new Error(`conformance/go/cocoon: Benchmark${name} gave ${figures.length} results, expected ${count}:\n${text}`);
  return figures;
}

/**
 * TS against Go on the hot path: the same fixture, the same work, timed in alternated rounds.
 * In each round every case is timed on both sides back to back (which side goes first alternates
 * by round and case), so drift on a shared machine hits both halves of a pair alike. Each side
 * measures a case in three windows and keeps the median, which takes out most spikes from other
 * processes; each round then gives one TS/Go ratio per case. The report shows their median
 * [min–max] and the median ns of each side, with the machine, Node and Go versions and the load,
 * and writes its section (`hot-path`) of BENCHMARKS.md.
 *
 *   npm run bench                      # 7 rounds of 200 ms per case and side
 *   npm run bench -- --rounds 3 --ms 100
 */
import { isDeepStrictEqual, parseArgs } from "node:util";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { buildGoBench, goCase, goReconcileMemory, goResults, goVersion } from "./go-bench.js";
import { FIXTURE_PATH, type HotPathCase, hotPathCases, hotPathResults, loadFixture } from "./hot-path-cases.js";
import { median } from "./measure-async.js";
import { callsFor, timeCalls } from "./measure.js";
import { reconcileMemory } from "./reconcile-memory.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "7" }, ms: { type: "string", default: "200" } } });
const ROUNDS = Number(values.rounds);
const BUDGET_MS = Number(values.ms);
const WINDOWS = 3;
const fixturePath = fileURLToPath(FIXTURE_PATH);

/** ns per call of `run`, timed over about `budgetMs` after a calibration pass. */
const tsNsPerCall = (run: () => unknown, budgetMs: number): number => timeCalls(run, callsFor(run, budgetMs));

const fixture = loadFixture();
const cases: HotPathCase[] = hotPathCases(fixture);
const binary = buildGoBench();

const go = goResults(binary, fixturePath);
// Go writes an int64 field as a decimal string (a `,string` tag), so no generation loses precision.
const int64AsText = (key: string, value: unknown): unknown => (key === "observedGeneration" ? String(value) : value);
const ts = JSON.parse(JSON.stringify(hotPathResults(fixture), int64AsText)) as unknown;
if (!isDeepStrictEqual(ts, go)) {
  console.error("TS and Go disagree on the fixture; refusing to compare their speed.");
  console.error(`TS: ${JSON.stringify(ts)}\nGo: ${JSON.stringify(go)}`);
  process.exit(1);
}

const tsNs = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const goNs = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const ratios = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach((c, index) => {
    const sides = [
      () => goNs.get(c.name)?.push(median(goCase(binary, fixturePath, c.name, BUDGET_MS / WINDOWS, WINDOWS))),
      () => tsNs.get(c.name)?.push(median(Array.from({ length: WINDOWS }, () => tsNsPerCall(c.run, BUDGET_MS / WINDOWS)))),
    ];
    if ((round + index) % 2 === 1) sides.reverse();
    for (const side of sides) side();
    ratios.get(c.name)?.push((tsNs.get(c.name)?.[round] ?? NaN) / (goNs.get(c.name)?.[round] ?? NaN));
  });
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}

const fmtNs = (ns: number): string => (ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
const spread = (r: readonly number[]): string => `${median(r).toFixed(2)} [${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}]`;
const cpu = os.cpus();
const machine = `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${os.type()} ${os.release()}`;
const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(" / ");
const header = [
  `Run ${new Date().toISOString().slice(0, 16)}Z on ${machine}; Node ${process.version}; ${goVersion()}.`,
  `${ROUNDS} alternated rounds of about ${BUDGET_MS} ms per case and side (median of ${WINDOWS} windows); TS / Go is the per-round ratio of ns per call, median [min–max].`,
  `The outputs of both sides on the fixture were checked equal before timing. Load average at the end (1 / 5 / 15 min): ${load}.`,
];
const table = [
  "| case | TS / Go | TS median | Go median |",
  "|---|---|---|---|",
  ...cases.map(
    (c) =>
      `| ${c.label} | ${spread(ratios.get(c.name) ?? [])} | ${fmtNs(median(tsNs.get(c.name) ?? []))} | ${fmtNs(median(goNs.get(c.name) ?? []))} |`,
  ),
];
const sizes = fixture.reconcilePods;
const memory = sizes.map((n) => reconcileMemory(fixture, n));
const goMemory = goReconcileMemory(binary, fixturePath);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
const perPass = (bytes: number, n: number, detail = ""): string => `${(bytes / 2 ** 20).toFixed(1)} MB (${kb(bytes / n)}${detail} per pod)`;
const relativeTime = (ns: ReadonlyMap<string, number[]>): string => {
  const perPod = sizes.map((n) => median(ns.get(`ReconcilePerPod/${String(n)}`) ?? []));
  return perPod.map((t) => (t / (perPod[0] ?? t)).toFixed(2)).join(" | ");
};
const memoryTable = [
  `| reconcile pass | ${sizes.map((n) => `N = ${String(n)}`).join(" | ")} |`,
  `|---|${sizes.map(() => "---").join("|")}|`,
  `| heap held per pod, TS | ${memory.map((m) => kb(m.heapPerPod)).join(" | ")} |`,
  `| heap held per pod, Go | ${goMemory.map((m) => kb(m.heapPerPod)).join(" | ")} |`,
  `| garbage per pass, TS | ${memory.map((m, i) => perPass(m.garbagePerPass, sizes[i] ?? 1)).join(" | ")} |`,
  `| allocated per pass, Go | ${goMemory.map((m) => perPass(m.allocatedPerPass, m.pods, `, ${(m.allocsPerPass / m.pods).toFixed(0)} allocations`)).join(" | ")} |`,
  `| time per pod, relative to N = ${String(sizes[0])} (1.00 = linear), TS | ${relativeTime(tsNs)} |`,
  `| time per pod, relative to N = ${String(sizes[0])}, Go | ${relativeTime(goNs)} |`,
];
console.log(`${header.join("\n")}\n\n${table.join("\n")}\n\n${memoryTable.join("\n")}`);

const page = `# Benchmarks

The hot path of a controller, TypeScript against the Go library it twins (cocoon-common v0.3.0,
re-declared in \`conformance/go/cocoon/\` from the Go reference on real \`corev1.Pod\` and
\`resource.Quantity\` values: the package the conformance oracle runs, timed by \`go test -bench\`
beside it). Inputs: \`bench/fixtures/hot-path.json\`, read by both sides. Reproduce with:

\`\`\`sh
npm run bench -- --rounds ${ROUNDS} --ms ${BUDGET_MS}
\`\`\`

${header.join("\n")}

${table.join("\n")}

${memoryTable.join("\n")}

Heap held per pod: the used heap's growth when the pods are built, after a full collection, over
N (Go: \`HeapAlloc\` after \`runtime.GC\`). Garbage per pass (TS): bytes allocated by one pass over
the N pods and not kept (the used heap's growth plus what each collection during the pass freed,
from V8's GC profiler). Allocated per pass (Go): the \`TotalAlloc\` and \`Mallocs\` growth over one
pass; the pass keeps only its last result, so that is its garbage too.

Go's \`fromAgentSpec\` reads a storage quantity that was decoded once with the object, so its
\`String()\` returns cached text, as in the operator; the TS twin takes the quantity as text and
canonicalises it on every call. Ratios above 1 mean TS is slower.
`;
writeBenchmarkSection("hot-path", "Hot path: TypeScript against Go", page);

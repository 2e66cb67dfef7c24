/**
 * CPU per failing `CocoonSetSchema.safeParse`, on the invalid fixtures of `schema-fixtures.ts`: zod's
 * own `z.safeParse` (a lazy literal per failure, which V8 keeps as a dictionary), this library's
 * (`src/apis/v1/internal/safe-parse.ts`, zod's public Standard Schema `validate`), and, given a copy
 * of an older `safe-parse.ts` at `bench/old-safe-parse.ts`, that one installed in its place. One mode
 * per process, so one's garbage does not land on another's collections; run the modes alternated.
 * Prints ops/s, CPU ns per call (all threads) and the share of wall time in the collector, per fixture.
 *
 *   npx tsx bench/failing-parse.ts <zod|ours|old> [issues]     # issues: read `error.issues` too
 *   git show 1a9190d:src/apis/v1/internal/safe-parse.ts > bench/old-safe-parse.ts   # the `_zod.run` path
 *   for i in 1 2 3 4 5; do for m in zod ours old; do npx tsx bench/failing-parse.ts $m; done; done
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { z } from "zod";
import { CocoonSetSchema } from "../src/apis/v1/index.js";
import { schemaFixtures } from "./schema-fixtures.js";

const [mode = "ours", read = ""] = process.argv.slice(2);
if (mode === "old") {
  const old = "./old-safe-parse.js";
  const { withSharedFailureShape } = (await import(old)) as { withSharedFailureShape: (schema: z.ZodType) => z.ZodType };
  withSharedFailureShape(CocoonSetSchema);
} else if (mode !== "zod" && mode !== "ours") throw new Error(`mode ${mode}: zod, ours or old`);
const parse = (value: unknown) => (mode === "zod" ? z.safeParse(CocoonSetSchema, value) : CocoonSetSchema.safeParse(value));
const run = read === "issues" ? (value: unknown) => parse(value).error?.issues : (value: unknown) => parse(value).success;

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const CALLS = 40_000;
const out: string[] = [];
for (const fixture of schemaFixtures.filter((f) => !f.valid)) {
  for (let i = 0; i < CALLS / 2; i++) run(fixture.value);
  gcMs = 0;
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  for (let i = 0; i < CALLS; i++) run(fixture.value);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await new Promise((resolve) => setTimeout(resolve, 10)); // the observer's entries arrive on a later turn
  const cpuNs = ((used.user + used.system) * 1000) / CALLS;
  out.push(`${String(Math.round((1000 * CALLS) / ms))}/s cpu ${cpuNs.toFixed(0)} ns gc ${String(Math.round((100 * gcMs) / ms))}%`);
}
console.log(`${mode} ${read || "success"} | ${out.join(" | ")}`);

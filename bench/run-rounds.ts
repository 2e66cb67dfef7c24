import { interleaved, type Variant } from "./measure-async.js";
import { printRun, RatioSpread } from "./report-table.js";

/** How many runs of how many rounds, after how many warm-up rounds. */
export interface Rounds {
  readonly runs: number;
  readonly n: number;
  readonly warmup: number;
}

/**
 * Runs the interleaved measurement `runs` times (seed = run number), printing each run's table and
 * then the spread of every variant's p50 ratio to the first; returns the spread.
 */
export async function runRounds(variants: readonly Variant[], { runs, n, warmup }: Rounds): Promise<RatioSpread> {
  const spread = new RatioSpread();
  for (let run = 1; run <= runs; run++) {
    const samples = await interleaved(variants, n, warmup, run);
    console.log(`\nrun ${run}/${runs}`);
    printRun(samples);
    spread.add(samples);
  }
  console.log(`\np50 / ${variants[0]?.name ?? ""} p50 over ${runs} runs: median [min - max]`);
  spread.print();
  return spread;
}

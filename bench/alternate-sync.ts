import { median } from "./measure-async.js";
import { callsFor, timeCalls } from "./measure.js";

/** One timed function of a group. */
export interface SyncRow {
  readonly name: string;
  readonly run: () => unknown;
}

/** Rows timed against each other; the first is the peer every ratio is taken to. */
export interface SyncGroup {
  readonly name: string;
  readonly rows: readonly SyncRow[];
}

/** One row's figures, one entry per round: ns per call, and its ratio to the group's peer in that round. */
export interface RowFigures {
  readonly ns: number[];
  readonly ratio: number[];
}

/**
 * How many rounds, after how many untimed ones, about how long each row is timed per round, in how
 * many windows (their median is kept).
 */
export interface SyncRounds {
  readonly rounds: number;
  readonly warmupRounds: number;
  readonly budgetMs: number;
  readonly windows: number;
}

/**
 * Times every row of every group in every round, group by group. Within a group the rows take turns
 * window by window, in an order that rotates by round and window, so drift on a shared machine hits
 * a row and its peer alike; a row's figure for the round is the median of its windows. The warm-up
 * rounds give V8 time to finish its optimising compiles (on a background thread, late on a loaded
 * machine) before anything counts. Returns the figures by group and row.
 */
export function alternateSync(groups: readonly SyncGroup[], { rounds, warmupRounds, budgetMs, windows }: SyncRounds): RowFigures[][] {
  const calls = groups.map((g) => g.rows.map((r) => callsFor(r.run, budgetMs / windows)));
  const figures = groups.map((g) => g.rows.map((): RowFigures => ({ ns: [], ratio: [] })));
  for (let round = -warmupRounds; round < rounds; round++) {
    groups.forEach((group, g) => {
      const count = group.rows.length;
      const samples = group.rows.map((): number[] => []);
      for (let w = 0; w < windows; w++) {
        for (let k = 0; k < count; k++) {
          const r = (round + warmupRounds + w + g + k) % count;
          const row = group.rows[r];
          if (row) samples[r]?.push(timeCalls(row.run, calls[g]?.[r] ?? 1));
        }
      }
      if (round < 0) return;
      const peer = median(samples[0] ?? []);
      samples.forEach((s, r) => {
        figures[g]?.[r]?.ns.push(median(s));
        figures[g]?.[r]?.ratio.push(median(s) / peer);
      });
    });
    process.stderr.write(round < 0 ? "warm-up round done\n" : `round ${round + 1}/${rounds} done\n`);
  }
  return figures;
}

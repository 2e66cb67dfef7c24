import { callsFor, nsPerCall } from "./measure.js";

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

/** How many rounds, about how long each row is timed per round, in how many windows (their median is kept). */
export interface SyncRounds {
  readonly rounds: number;
  readonly budgetMs: number;
  readonly windows: number;
}

/**
 * Times every row of every group once per round, group by group, the rows of a group back to back
 * in an order that rotates by round, so drift on a shared machine hits a row and its peer alike.
 * Returns the figures by group and row, in the order given.
 */
export function alternateSync(groups: readonly SyncGroup[], { rounds, budgetMs, windows }: SyncRounds): RowFigures[][] {
  const calls = groups.map((g) => g.rows.map((r) => callsFor(r.run, budgetMs / windows)));
  const figures = groups.map((g) => g.rows.map((): RowFigures => ({ ns: [], ratio: [] })));
  for (let round = 0; round < rounds; round++) {
    groups.forEach((group, g) => {
      const count = group.rows.length;
      for (let k = 0; k < count; k++) {
        const r = (round + g + k) % count;
        const row = group.rows[r];
        if (row) figures[g]?.[r]?.ns.push(nsPerCall(row.run, calls[g]?.[r] ?? 1, windows));
      }
      const peer = figures[g]?.[0]?.ns[round] ?? Number.NaN;
      for (const row of figures[g] ?? []) row.ratio.push((row.ns[round] ?? Number.NaN) / peer);
    });
    process.stderr.write(`round ${round + 1}/${rounds} done\n`);
  }
  return figures;
}

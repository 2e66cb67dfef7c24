import { median } from "./measure-async.js";
import type { RunFigures } from "./report-table.js";

/** The rows whose p50s split the gain of `createClients` over stock client-node. */
export interface GainRows {
  readonly stock: string;
  readonly peer: string;
  readonly cocoon: string;
}

/**
 * Splits the p50 gain from stock client-node to `createClients` into its steps: sharing one
 * keep-alive agent (stock → peer) and the rest of `createClients` on the same transport (peer →
 * `createClients`). A sentence, or undefined when a row was not run.
 */
export function gainSplit(figures: readonly RunFigures[], rows: GainRows): string | undefined {
  const p50 = (name: string): number | undefined => {
    const found = figures.find((f) => f.name === name);
    return found === undefined ? undefined : median(found.p50Ms);
  };
  const [stock, peer, cocoon] = [p50(rows.stock), p50(rows.peer), p50(rows.cocoon)];
  if (stock === undefined || peer === undefined || cocoon === undefined) return undefined;
  // `+ 0` turns a rounded -0 into 0.
  const share = (from: number, to: number): string => `${(Math.round(((from - to) / (stock - cocoon)) * 100) + 0).toFixed(0)}%`;
  return (
    `Of the p50 gain from stock client-node to createClients (${(stock - cocoon).toFixed(3)} ms): ` +
    `sharing one keep-alive agent ${share(stock, peer)}, the rest of createClients ${share(peer, cocoon)} ` +
    `(medians over the runs; noisy where the steps are small).`
  );
}

import { median } from "./measure-async.js";
import type { RunFigures } from "./report-table.js";

/** The rows whose p50s split the gain of `createClients` over stock client-node. */
export interface GainRows {
  readonly stock: string;
  readonly peer: string;
  readonly fetch: string;
  readonly node: string;
}

/**
 * Splits the p50 gain from stock client-node to `createClients` "node" into its steps: sharing one
 * keep-alive agent (stock → peer), the rest of `createClients` on the same transport (peer →
 * `createClients` "fetch") and its `node:https` transport ("fetch" → "node"). A sentence, or
 * undefined when a row was not run.
 */
export function gainSplit(figures: readonly RunFigures[], rows: GainRows): string | undefined {
  const p50 = (name: string): number | undefined => {
    const found = figures.find((f) => f.name === name);
    return found === undefined ? undefined : median(found.p50Ms);
  };
  const [stock, peer, fetch, node] = [p50(rows.stock), p50(rows.peer), p50(rows.fetch), p50(rows.node)];
  if (stock === undefined || peer === undefined || fetch === undefined || node === undefined) return undefined;
  // `+ 0` turns a rounded -0 into 0.
  const share = (from: number, to: number): string => `${(Math.round(((from - to) / (stock - node)) * 100) + 0).toFixed(0)}%`;
  return (
    `Of the p50 gain from stock client-node to createClients "node" (${(stock - node).toFixed(3)} ms): ` +
    `sharing one keep-alive agent ${share(stock, peer)}, the rest of createClients on node-fetch ${share(peer, fetch)}, ` +
    `the node:https transport ${share(fetch, node)} (medians over the runs; noisy where the steps are small).`
  );
}

// Every result is kept here, so the optimiser cannot drop a call whose value is unused.
const sink: { last?: unknown } = {};

/** Nanoseconds per call of `fn` over one batch of `calls` calls, no warm-up; the results go to a sink. */
export function timeCalls(fn: () => unknown, calls: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink.last = fn();
  return Number(process.hrtime.bigint() - start) / calls;
}

/** Prints one table row: name, ns per call, and the ratio to the peer's figure. */
export function row(name: string, ns: number, peerNs?: number): void {
  const ratio = peerNs === undefined ? "" : ` ${(ns / peerNs).toFixed(2)}x`;
  console.log(`${name.padEnd(58)} ${ns.toFixed(0).padStart(8)} ns${ratio}`);
}

/** How many calls of `fn` take about `budgetMs` (at least one), from timing growing batches. */
export function callsFor(fn: () => unknown, budgetMs: number): number {
  for (let batch = 1; ; batch *= 4) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (ms >= 10) return Math.max(1, Math.round((batch * budgetMs) / ms));
  }
}

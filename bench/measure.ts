/** Median nanoseconds per call of `fn` over `rounds` timed rounds of `iterations` calls each, after a warm-up. */
export function nsPerCall(fn: () => unknown, iterations = 20_000, rounds = 7): number {
  for (let i = 0; i < iterations; i++) fn();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) samples.push(timeCalls(fn, iterations));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(rounds / 2)] ?? Number.NaN;
}

/** Nanoseconds per call of `fn` over one batch of `calls` calls, no warm-up. */
export function timeCalls(fn: () => unknown, calls: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
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

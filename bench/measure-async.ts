/** Samples of one variant: wall-clock latency (ms) and this process's CPU time (user + system, µs) per call. */
export interface Samples {
  readonly name: string;
  readonly ms: number[];
  readonly cpuUs: number[];
}

/** One async variant of an interleaved measurement. */
export interface Variant {
  /** Row label. */
  readonly name: string;
  /** Performs one request; `i` is a sequence number unique across all variants. */
  readonly run: (i: number) => Promise<unknown>;
}

/** p50, p90 and p99 of a set of samples (nearest rank). */
export interface Percentiles {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** Returns the nearest-rank percentiles of `ms`. */
export function percentiles(ms: readonly number[]): Percentiles {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(50), p90: at(90), p99: at(99) };
}

/**
 * Times `rounds` rounds of sequential calls, one call of every variant per round, after `warmup`
 * untimed rounds. Machine load therefore hits every variant alike. The order within a round is a
 * seeded shuffle, so that no variant always follows the same one (a stock client-node call leaves a
 * connection closing behind it, which would otherwise always tax the same successor).
 */
export async function interleaved(variants: readonly Variant[], rounds: number, warmup: number, seed = 1): Promise<Samples[]> {
  const samples = variants.map((v) => ({ name: v.name, ms: [] as number[], cpuUs: [] as number[] }));
  const random = mulberry32(seed);
  const order = variants.map((_, i) => i);
  let seq = 0;
  for (let r = -warmup; r < rounds; r++) {
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
    for (const index of order) {
      const variant = variants[index]!;
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await variant.run(seq++);
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpu);
      if (r >= 0) {
        samples[index]!.ms.push(elapsed);
        samples[index]!.cpuUs.push(used.user + used.system);
      }
    }
  }
  return samples;
}

/** Median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A small seeded PRNG (mulberry32) returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

import { median, percentiles, type Samples } from "./measure-async.js";

/** Prints one run: p50/p90/p99, their ratios to the first row's, the median paired ratio, p50 above the first row in µs, client CPU µs per call. */
export function printRun(samples: readonly Samples[]): void {
  const base = samples[0]!;
  const f = percentiles(base.ms);
  console.log(
    `  ${"variant".padEnd(52)} ${"p50 ms".padStart(7)} ${"p90 ms".padStart(7)} ${"p99 ms".padStart(7)}   p50x   p90x   p99x paired  +p50 us  cpu us`,
  );
  for (const s of samples) {
    const p = percentiles(s.ms);
    const paired = median(s.ms.map((ms, r) => ms / base.ms[r]!));
    const cells = [p.p50, p.p90, p.p99].map((v) => v.toFixed(3).padStart(7)).join(" ");
    const x = [p.p50 / f.p50, p.p90 / f.p90, p.p99 / f.p99, paired].map((v) => v.toFixed(2).padStart(6)).join(" ");
    const over = ((p.p50 - f.p50) * 1000).toFixed(0).padStart(8);
    console.log(`  ${s.name.padEnd(52)} ${cells} ${x} ${over} ${median(s.cpuUs).toFixed(0).padStart(7)}`);
  }
}

/** One variant's figures over the runs so far: its p50 (ms) and its p50 ratio to the first variant's, one per run. */
export interface RunFigures {
  readonly name: string;
  readonly p50Ms: readonly number[];
  readonly ratios: readonly number[];
}

/** Collects the p50 ratio of every variant to the first, run after run, and prints their spread. */
export class RatioSpread {
  readonly #ratios = new Map<string, number[]>();
  readonly #p50Ms = new Map<string, number[]>();

  /** Adds one run's samples (first = the base). */
  add(samples: readonly Samples[]): void {
    const base = percentiles(samples[0]!.ms).p50;
    for (const s of samples) {
      const p50 = percentiles(s.ms).p50;
      this.#ratios.set(s.name, [...(this.#ratios.get(s.name) ?? []), p50 / base]);
      this.#p50Ms.set(s.name, [...(this.#p50Ms.get(s.name) ?? []), p50]);
    }
  }

  /** Every variant's figures, in the order first added. */
  figures(): RunFigures[] {
    return [...this.#ratios].map(([name, ratios]) => ({ name, ratios, p50Ms: this.#p50Ms.get(name) ?? [] }));
  }

  /** Median p50 ratio of `name` over the runs so far. */
  median(name: string): number {
    return median(this.#ratios.get(name) ?? []);
  }

  /** Prints median [min - max] per variant. */
  print(): void {
    for (const [name, r] of this.#ratios) {
      console.log(`  ${name.padEnd(52)} ${median(r).toFixed(3)}x [${Math.min(...r).toFixed(3)} - ${Math.max(...r).toFixed(3)}]`);
    }
  }
}

/** A report printed as it is written: `say` prints a line and keeps it in `lines`, for BENCHMARKS.md. */
export function echoedLines(): { readonly lines: string[]; readonly say: (line: string) => void } {
  const lines: string[] = [];
  return {
    lines,
    say: (line) => {
      console.log(line);
      lines.push(line);
    },
  };
}

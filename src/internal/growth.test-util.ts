/**
 * Growth ratios instead of absolute times: how much longer a call takes when its input doubles.
 * Linear work gives about 2, quadratic about 4, whatever the machine's speed. Time is this
 * process's CPU time, not the wall clock, so other processes on a shared machine do not count.
 *
 * @module
 */
/** The most a doubled input may cost, as a multiple of the single input's time. */
export const MAX_GROWTH = 2.2;

/**
 * The most a doubled input may cost in CPU time: 2√2, halfway between linear (2) and quadratic (4)
 * on a log scale. n log n work and a larger heap's collections measure 2.2-2.3 on a loaded machine;
 * a quadratic cost still fails every try.
 */
export const MAX_TIME_GROWTH = 2 * Math.SQRT2;

const TRIALS = 5;
const MIN_TRIAL_MS = 10;
const ATTEMPTS = 3;

/** CPU milliseconds (user and system) of `reps` calls of `run(input)`. */
function timeOf<T>(run: (input: T) => unknown, input: T, reps: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < reps; i++) run(input);
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** One measurement: the fastest of {@link TRIALS} alternating trials at each size, as a ratio. */
function measure<T>(run: (input: T) => unknown, single: T, double: T): number {
  run(single);
  run(double); // warm both paths (and flatten lazily built strings) before timing
  let reps = 1;
  while (timeOf(run, single, reps) < MIN_TRIAL_MS && reps < 1 << 20) reps *= 2;
  let fastSingle = Infinity;
  let fastDouble = Infinity;
  for (let trial = 0; trial < TRIALS; trial++) {
    fastSingle = Math.min(fastSingle, timeOf(run, single, reps));
    fastDouble = Math.min(fastDouble, timeOf(run, double, reps));
  }
  return fastDouble / fastSingle;
}

/**
 * Returns the time growth of `run` from `make(n)` to `make(2n)`: the lowest of up to
 * {@link ATTEMPTS} measurements, stopping at the first within `bound`. A loaded machine
 * can spoil one measurement; super-linear work is over the bound in every one.
 */
export function timeGrowth<T>(make: (n: number) => T, run: (input: T) => unknown, n: number, bound = MAX_GROWTH): number {
  const single = make(n);
  const double = make(2 * n);
  let best = Infinity;
  for (let attempt = 0; attempt < ATTEMPTS && best > bound; attempt++) best = Math.min(best, measure(run, single, double));
  return best;
}

/** The size growth of what `run` returns (its JSON text, or `size` of it) from `make(n)` to `make(2n)`. */
export function sizeGrowth<T>(
  make: (n: number) => T,
  run: (input: T) => unknown,
  n: number,
  size = (out: unknown) => JSON.stringify(out).length,
): number {
  return size(run(make(2 * n))) / size(run(make(n)));
}

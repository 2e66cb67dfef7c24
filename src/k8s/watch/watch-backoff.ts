/** client-go's reflector: `wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)`. */
const INITIAL_MS = 800;
const CAP_MS = 30_000;
const RESET_AFTER_MS = 120_000;
const FACTOR = 2;

/**
 * The waits of a watch between requests that went wrong, as client-go's reflector backs off: the
 * n-th wait is 800 ms × 2^(n−1), capped at 30 s, then jittered up to twice that (so 800 ms to
 * 1.6 s first, 30 s to 60 s at the cap). It starts over after a healthy watch, or when the last
 * wait began more than 2 minutes ago.
 *
 * @internal
 */
export class WatchBackoff {
  #base = INITIAL_MS;
  #lastStart = -Infinity;
  readonly #random: () => number;
  readonly #now: () => number;

  constructor(random: () => number = Math.random, now: () => number = Date.now) {
    this.#random = random;
    this.#now = now;
  }

  /** The next wait, in whole milliseconds. */
  next(): number {
    const now = this.#now();
    if (now - this.#lastStart > RESET_AFTER_MS) this.#base = INITIAL_MS;
    this.#lastStart = now;
    const base = this.#base;
    this.#base = Math.min(base * FACTOR, CAP_MS);
    return Math.floor(base * (1 + this.#random()));
  }

  /** Starts over: the next wait is the first again. */
  reset(): void {
    this.#base = INITIAL_MS;
  }
}

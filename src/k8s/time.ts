// Cancellable waiting (Go's `SleepCtx` and `RunTicker`), with an `AbortSignal` in place of a context.
import { CocoonError } from "../errors.js";

/** The longest delay one Node timer supports (2^31−1 ms, about 24.8 days); longer ones fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` milliseconds unless `signal` aborts first; resolves `true` when the time elapsed.
 *
 * Go's `SleepCtx`: a non-positive `ms` (or `NaN`) resolves `true` at once without looking at the
 * signal, even an aborted one. Otherwise it resolves `false` as soon as the signal aborts (at
 * once if it already has). The timer and the abort listener are removed either way, so nothing
 * is left behind. Delays beyond Node's timer limit are waited out in steps; `Infinity` waits for
 * the signal. It never rejects.
 *
 * @param ms - How long to wait, in milliseconds.
 * @param signal - Ends the wait early.
 * @example
 * ```ts
 * while (!signal.aborted) {
 *   await reconcile();
 *   if (!(await sleep(5_000, signal))) break; // aborted: shut down
 * }
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (!(ms > 0)) return Promise.resolve(true);
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const arm = (remaining: number): void => {
      const step = Math.min(remaining, MAX_TIMER_MS);
      timer = setTimeout(() => {
        if (remaining > step) {
          arm(remaining - step);
          return;
        }
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      }, step);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    arm(ms);
  });
}

/**
 * Calls `fn` every `ms` milliseconds until `signal` aborts (Go's `RunTicker`).
 *
 * The first call comes after one interval, never at once. `fn` may be async and is awaited:
 * ticks that arrive while it runs collapse into at most one pending tick, which runs as soon
 * as it returns. The promise resolves when the signal aborts, but only between calls (a
 * running `fn` is finished first and sees the aborted signal); it resolves at once if the signal
 * has already aborted. If `fn` throws or rejects, ticking stops and the promise rejects with that
 * error (Go would panic).
 *
 * @param ms - The interval, in milliseconds: finite, positive, at most 2^31−1 (Node's timer limit).
 * @param fn - Called on each tick with the signal.
 * @param signal - Stops the ticker.
 * @throws `CocoonError` `ERR_INVALID_ARGUMENT`, synchronously, for an interval outside that range
 *   (Go's `time.NewTicker` panics for a non-positive one).
 * @example
 * ```ts
 * const controller = new AbortController();
 * const done = runTicker(30_000, async (signal) => resync(signal), controller.signal);
 * // later
 * controller.abort();
 * await done;
 * ```
 */
export function runTicker(ms: number, fn: (signal: AbortSignal) => unknown, signal: AbortSignal): Promise<void> {
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `runTicker: interval must be a positive number of milliseconds up to ${String(MAX_TIMER_MS)}, got ${String(ms)}`,
    );
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let running = false;
    let pending = false;
    const finish = (error?: { err: unknown }): void => {
      clearInterval(interval);
      signal.removeEventListener("abort", onAbort);
      if (error) reject(error.err);
      else resolve();
    };
    const onAbort = (): void => {
      if (!running) finish();
    };
    const run = async (): Promise<void> => {
      running = true;
      try {
        do {
          pending = false;
          await fn(signal);
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a tick during `await fn` sets it
        } while (pending && !signal.aborted);
      } catch (err) {
        running = false;
        finish({ err });
        return;
      }
      running = false;
      if (signal.aborted) finish();
    };
    const interval = setInterval(() => {
      if (running) pending = true;
      else void run();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

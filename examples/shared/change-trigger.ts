/**
 * Typed watches as reconcile triggers, shared by both examples. Each pass reads the objects it
 * decides on fresh from the API server (so it always sees its own writes); the watches only say
 * when to run one. A pass also runs every `resyncMs` without a change, which retries a failed one.
 *
 * @module
 */
import type { CocoonWatch } from "@cocoonstack/cocoon-common/k8s";

/** The next pass to run; see {@link changeTrigger}. */
export interface ChangeTrigger {
  /** Resolves `true` on the next change (or at once if one came since the last call) or after `resyncMs`; `false` once aborted. */
  next(): Promise<boolean>;
}

/** Starts consuming `watches`; an object that does not parse and a retried request are logged, every other event is a change. */
export function changeTrigger(
  watches: readonly CocoonWatch<unknown>[],
  options: { readonly signal: AbortSignal; readonly resyncMs: number; readonly log: (line: string) => void },
): ChangeTrigger {
  const { signal, resyncMs, log } = options;
  let changed = false;
  let wake = (): void => undefined;
  const consume = async (watch: CocoonWatch<unknown>): Promise<void> => {
    for await (const event of watch) {
      if (event.type === "invalid") log(`watch: ${event.error.message}`);
      else if (event.type === "retrying") log(`watch: retrying in ${event.delayMs} ms: ${String(event.error)}`);
      changed = true;
      wake();
    }
  };
  for (const watch of watches) void consume(watch);
  return {
    async next() {
      if (!changed && !signal.aborted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, resyncMs);
          signal.addEventListener("abort", done, { once: true });
          wake = done;
          function done(): void {
            clearTimeout(timer);
            signal.removeEventListener("abort", done);
            wake = () => undefined;
            resolve();
          }
        });
      }
      changed = false;
      return !signal.aborted;
    },
  };
}

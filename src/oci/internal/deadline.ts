import { RegistryError } from "../errors.js";

/** The overall deadline of one registry call. */
export interface CallDeadline {
  /** Aborts when the caller's signal does, or with `ERR_REGISTRY_TIMEOUT` when the deadline passes. */
  readonly signal: AbortSignal;
  /** Stops the clock once the call is done. */
  end(): void;
}

/**
 * Starts the deadline of a call: after `ms` its signal aborts with a {@link RegistryError}
 * `ERR_REGISTRY_TIMEOUT` naming `what`, so whatever reads `signal.reason` throws a typed error.
 */
export function startDeadline(what: string, ms: number, caller: AbortSignal | undefined): CallDeadline {
  const clock = new AbortController();
  const timer = setTimeout(() => {
    clock.abort(new RegistryError("ERR_REGISTRY_TIMEOUT", `${what}: not done within the call's ${ms} ms deadline`));
  }, ms);
  const signal = caller === undefined ? clock.signal : AbortSignal.any([caller, clock.signal]);
  return { signal, end: () => clearTimeout(timer) };
}

export { untilAborted } from "../../internal/until-aborted.js";

import { formatInt, toGoInteger } from "../internal/go/index.js";
import { type EntryMap, annotationsOf, ownString, readOwnStrings } from "../internal/safe-read.js";
import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
import { type Int64, int64OrZero, readInt64Annotation } from "./generation.js";
import { Annotation } from "./keys.js";

/**
 * The VM lifecycle states the virtual kubelet reports on its pod.
 *
 * @example
 * ```ts
 * if (readLifecycleState(pod) === LifecycleState.Failed) await recreate(pod);
 * ```
 */
export const LifecycleState = {
  Creating: "creating",
  Ready: "ready",
  Hibernating: "hibernating",
  Hibernated: "hibernated",
  Failed: "failed",
} as const;
/** One of the {@link LifecycleState} values. */
export type LifecycleState = (typeof LifecycleState)[keyof typeof LifecycleState];

/**
 * The lifecycle the virtual kubelet reports: state, the CocoonSet generation it observed, and a message.
 *
 * @example
 * ```ts
 * const status: LifecycleStatus = { state: LifecycleState.Hibernated, observedGeneration: 3, message: "" };
 * applyLifecycleStatus(pod, status); // an empty message deletes the message key, as in Go
 * ```
 */
export interface LifecycleStatus {
  /** A {@link LifecycleState}; read back raw, so any string the annotation holds. */
  state: LifecycleState | (string & {});
  /** The CocoonSet generation the virtual kubelet acted on. */
  observedGeneration: Int64;
  /** Free text; `""` means no message. */
  message: string;
}

const TERMINAL: ReadonlySet<string> = new Set([LifecycleState.Ready, LifecycleState.Hibernated, LifecycleState.Failed]);

/** Reports whether `state` is terminal: exactly `ready`, `hibernated` and `failed`. Never throws. */
export function isTerminalLifecycleState(state: string): boolean {
  return TERMINAL.has(state);
}

/**
 * Returns the delta that writes a lifecycle status. It always holds the three keys: the state
 * (an empty state is written as `""`), the generation in decimal, and the message, deleted when empty.
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `observedGeneration` is not a Go `int64`.
 * @example
 * ```ts
 * lifecycleStatusAnnotations({ state: LifecycleState.Ready, observedGeneration: 3, message: "" });
 * // => { ".../lifecycle-state": "ready", ".../lifecycle-observed-generation": "3", ".../lifecycle-state-message": null }
 * ```
 */
export function lifecycleStatusAnnotations(status: LifecycleStatus): AnnotationDelta {
  const generation = toGoInteger(status.observedGeneration, "lifecycle observed generation", 64);
  return {
    [Annotation.LifecycleState]: status.state,
    [Annotation.LifecycleObservedGeneration]: formatInt(generation),
    [Annotation.LifecycleStateMessage]: status.message === "" ? null : status.message,
  };
}

/**
 * Writes the lifecycle status on the pod, in place; an empty message deletes the message key.
 *
 * @example
 * ```ts
 * applyLifecycleStatus(pod, { state: LifecycleState.Hibernated, observedGeneration: 2, message: "" });
 * ```
 */
export function applyLifecycleStatus(obj: Annotated, status: LifecycleStatus): void {
  applyAnnotations(obj, lifecycleStatusAnnotations(status));
}

/**
 * Reads the lifecycle status raw: no validation of the state; an invalid generation reads as 0.
 * Never throws, and takes linear time (see {@link readCocoonSetGeneration}).
 *
 * @example
 * ```ts
 * const { state, observedGeneration } = readLifecycleStatus(pod);
 * const hibernated = state === LifecycleState.Hibernated && observedGeneration === set.metadata.generation;
 * ```
 */
export function readLifecycleStatus(obj: Annotated): LifecycleStatus {
  return readOwnStrings(annotationsOf(obj), lifecycleStatusOf);
}

function lifecycleStatusOf(m: EntryMap, p: object): LifecycleStatus {
  return {
    state: ownString(m, Annotation.LifecycleState, m[Annotation.LifecycleState], Annotation.LifecycleState in p),
    observedGeneration: int64OrZero(
      ownString(
        m,
        Annotation.LifecycleObservedGeneration,
        m[Annotation.LifecycleObservedGeneration],
        Annotation.LifecycleObservedGeneration in p,
      ),
    ),
    message: ownString(m, Annotation.LifecycleStateMessage, m[Annotation.LifecycleStateMessage], Annotation.LifecycleStateMessage in p),
  };
}

/** Reads the lifecycle state raw; `""` when missing. Never throws. */
export function readLifecycleState(obj: Annotated): LifecycleState | (string & {}) {
  return annotationOf(obj, Annotation.LifecycleState);
}

/** Reads the generation the virtual kubelet observed; 0 when missing or not a Go `int64`. Never throws, in linear time. */
export function readLifecycleObservedGeneration(obj: Annotated): Int64 {
  return readInt64Annotation(obj, Annotation.LifecycleObservedGeneration);
}

/**
 * Returns a string that identifies the status, for change detection (Go's `LifecycleStatus.Snapshot`):
 * state, generation and message joined by NUL.
 *
 * @example
 * ```ts
 * lifecycleStatusKey({ state: "", observedGeneration: 0, message: "" }); // => "\u00000\u0000"
 * ```
 */
export function lifecycleStatusKey(status: LifecycleStatus): string {
  return `${status.state}\x00${formatInt(status.observedGeneration)}\x00${status.message}`;
}

import { annotationsOf, stringEntry } from "../internal/safe-read.js";
import { checkedEntries } from "./internal/annotation-delta.js";

/**
 * A set of annotation writes: a string value sets the key, `null` deletes it.
 *
 * Every typed contract in this package returns one. The same delta is applied in memory with
 * {@link applyAnnotations} or sent as a JSON merge patch built by {@link annotationsMergePatch},
 * so what a controller does in memory and what it sends cannot differ.
 */
export type AnnotationDelta = Readonly<Record<string, string | null>>;

/** Anything with object metadata: client-node's `V1Pod`, a CocoonSet, plain JSON. */
export interface Annotated {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/** The JSON merge patch (RFC 7386) that applies an {@link AnnotationDelta} on the server. */
export interface AnnotationsMergePatch {
  /** Only `metadata.annotations` is ever present. */
  metadata: { annotations: Record<string, string | null> };
}

/**
 * Applies `delta` to `obj`'s annotations, in place.
 *
 * Like Go's writers, the annotations map is created when missing, except for a delta that only
 * deletes keys (Go's `HibernateState(false).Apply` leaves a nil map nil). The delta is checked
 * whole before anything is written, so bad input never leaves `obj` half-changed.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ANNOTATION_DELTA` when a value is neither a string nor `null`.
 * @example
 * ```ts
 * applyAnnotations(pod, { [Annotation.Hibernate]: "true", [Annotation.VMID]: null });
 * ```
 */
export function applyAnnotations(obj: Annotated, delta: AnnotationDelta): void {
  const entries = checkedEntries(delta, true);
  const onlyDeletes = entries.length > 0 && entries.every(([, value]) => value === null);
  let annotations = obj.metadata?.annotations;
  if (annotations == null) {
    if (onlyDeletes) return;
    obj.metadata ??= {};
    annotations = obj.metadata.annotations = {};
  }
  for (const [key, value] of entries) {
    if (value === null) delete annotations[key];
    else annotations[key] = value;
  }
}

/**
 * Reports whether `obj` already holds `delta`: every set key has that exact value and every
 * deleted key is absent. The client helpers send nothing when this is true.
 *
 * @example
 * ```ts
 * annotationsSatisfied(pod, keepSnapshotOnDeleteAnnotations()); // => false until flagged
 * ```
 */
export function annotationsSatisfied(obj: Annotated, delta: AnnotationDelta): boolean {
  const annotations = obj.metadata?.annotations;
  for (const [key, value] of checkedEntries(delta, true)) {
    const current = annotations?.[key];
    if (value === null ? current !== undefined : current !== value) return false;
  }
  return true;
}

/**
 * Builds the JSON merge patch that applies `delta` on the server.
 *
 * Keys are inserted in sorted order, as Go's `encoding/json` sorts map keys; the meaning on the wire
 * is Go's, though `JSON.stringify` of it may differ in bytes (integer-like keys first, no HTML
 * escaping): {@link annotationsMergePatchJSON} gives Go's exact bytes. Unlike Go's `AnnotationsMergePatch(nil)`,
 * which yields `{"metadata":{"annotations":null}}` and wipes every annotation, a missing or empty
 * delta is refused.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ANNOTATION_DELTA` for a missing, empty or ill-typed delta.
 * @example
 * ```ts
 * annotationsMergePatch(hibernateStateAnnotations(true));
 * // => { metadata: { annotations: { "vm.cocoonstack.io/hibernate": "true" } } }
 * ```
 */
export function annotationsMergePatch(delta: AnnotationDelta): AnnotationsMergePatch {
  const entries = checkedEntries(delta, false);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { metadata: { annotations: Object.fromEntries(entries) } };
}

/**
 * Reads one annotation; a missing map or key reads as `""`, like a Go map. Never throws: anything
 * that is not a string value under an own key of `metadata.annotations` reads as `""`.
 */
export function annotationOf(obj: Annotated, key: string): string {
  return stringEntry(annotationsOf(obj), key);
}

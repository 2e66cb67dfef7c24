import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

const TRUE = "true";

/**
 * Reports whether the object is flagged to hibernate. Only the exact value `"true"` counts.
 * Never throws, like every reader here: what is not a string annotation reads as missing.
 *
 * @example
 * ```ts
 * readHibernateState({ metadata: { annotations: { [Annotation.Hibernate]: "True" } } }); // => false
 * ```
 */
export function readHibernateState(obj: Annotated): boolean {
  return annotationOf(obj, Annotation.Hibernate) === TRUE;
}

/**
 * Returns the delta that sets the hibernate flag, or deletes it for `false` (Go never writes `"false"`).
 *
 * @example
 * ```ts
 * hibernateStateAnnotations(false); // => { "vm.cocoonstack.io/hibernate": null }
 * ```
 */
export function hibernateStateAnnotations(state: boolean): AnnotationDelta {
  return { [Annotation.Hibernate]: state ? TRUE : null };
}

/**
 * Sets or clears the hibernate flag on `obj`, in place; `false` removes the key and never creates the map.
 *
 * @example
 * ```ts
 * applyHibernateState(pod, true); // vm.cocoonstack.io/hibernate: "true"
 * applyHibernateState(pod, false); // the key is deleted
 * ```
 */
export function applyHibernateState(obj: Annotated, state: boolean): void {
  applyAnnotations(obj, hibernateStateAnnotations(state));
}

/** Reports whether the pod is to be restored from its `:hibernate` snapshot. Never throws. */
export function readRestoreFromHibernate(obj: Annotated): boolean {
  return annotationOf(obj, Annotation.RestoreFromHibernate) === TRUE;
}

/** Returns the delta that marks a pod to be restored from its `:hibernate` snapshot (there is no unmark). */
export function restoreFromHibernateAnnotations(): AnnotationDelta {
  return { [Annotation.RestoreFromHibernate]: TRUE };
}

/**
 * Marks the pod to be restored from its `:hibernate` snapshot, in place.
 *
 * @example
 * ```ts
 * const body = buildMainPod(set); // the woken main pod
 * markRestoreFromHibernate(body);
 * readRestoreFromHibernate(body); // => true
 * ```
 */
export function markRestoreFromHibernate(obj: Annotated): void {
  applyAnnotations(obj, restoreFromHibernateAnnotations());
}

/**
 * Reports whether the virtual kubelet should keep the node-local snapshot when the pod is deleted. Never throws.
 *
 * The virtual kubelet reads it from the pod it sees deleted: a flagged pod's snapshot stays as a warm-wake cache.
 *
 * @example
 * ```ts
 * if (!readKeepSnapshotOnDelete(deletedPod)) await gcSnapshot(vmName); // flagged: keep it as a warm-wake cache
 * ```
 */
export function readKeepSnapshotOnDelete(obj: Annotated): boolean {
  return annotationOf(obj, Annotation.KeepSnapshotOnDelete) === TRUE;
}

/**
 * Returns the delta that flags a pod to keep its node-local snapshot on delete.
 *
 * @example
 * ```ts
 * keepSnapshotOnDeleteAnnotations(); // => { "vm.cocoonstack.io/keep-snapshot-on-delete": "true" }
 * ```
 */
export function keepSnapshotOnDeleteAnnotations(): AnnotationDelta {
  return { [Annotation.KeepSnapshotOnDelete]: TRUE };
}

/** Flags the pod to keep its node-local snapshot on delete, in place. */
export function markKeepSnapshotOnDelete(obj: Annotated): void {
  applyAnnotations(obj, keepSnapshotOnDeleteAnnotations());
}

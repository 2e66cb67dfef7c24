import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

/**
 * Reads the wake hint on a CocoonSet: the node its main pod ran on when the seat was released; `""` when unset.
 * Never throws.
 *
 * @example
 * ```ts
 * readHibernatedOnNode(set); // => "" (no hint)
 * stashHibernatedOnNode(set, "node-1");
 * readHibernatedOnNode(set); // => "node-1"
 * ```
 */
export function readHibernatedOnNode(set: Annotated): string {
  return annotationOf(set, Annotation.HibernatedOnNode);
}

/**
 * Returns the delta that stashes the wake hint on a CocoonSet, or clears it for `null`, `undefined`
 * or `""` (as the Go operator sends `null` for an empty value). `undefined` is what client-node's
 * `V1Pod` gives for the node of an unscheduled pod (`pod.spec?.nodeName`).
 *
 * @example
 * ```ts
 * hibernatedOnNodeAnnotations("node-a"); // => { "cocoonset.cocoonstack.io/hibernated-on-node": "node-a" }
 * hibernatedOnNodeAnnotations(null); // => { "cocoonset.cocoonstack.io/hibernated-on-node": null }
 * ```
 */
export function hibernatedOnNodeAnnotations(node: string | null | undefined): AnnotationDelta {
  return { [Annotation.HibernatedOnNode]: node === "" || node === undefined ? null : node };
}

/**
 * Stashes the main pod's node on the CocoonSet as the wake hint, in place.
 *
 * @example
 * ```ts
 * stashHibernatedOnNode(set, "node-1");
 * readHibernatedOnNode(set); // => "node-1"
 * ```
 */
export function stashHibernatedOnNode(set: Annotated, node: string): void {
  applyAnnotations(set, hibernatedOnNodeAnnotations(node));
}

/** Clears the wake hint from the CocoonSet, in place (once the woken VM is live). */
export function clearHibernatedOnNode(set: Annotated): void {
  applyAnnotations(set, hibernatedOnNodeAnnotations(null));
}

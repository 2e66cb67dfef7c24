import { Annotation } from "./keys.js";

/**
 * What an annotation's value holds, as the contract's readers interpret it.
 *
 * - `text`: read raw (names, images, enum values the operator writes, the lifecycle message).
 * - `flag`: only `"true"` counts as true; anything else reads as false.
 * - `int32`, `int64`: a Go `strconv.ParseInt` decimal; anything else reads as 0.
 * - `quantity`: a Kubernetes quantity such as `512Mi` or `1.5Gi`, written in its canonical form.
 * - `lifecycle-state`: one of the `LifecycleState` values.
 *
 * @internal
 */
export type AnnotationValueKind = "text" | "flag" | "int32" | "int64" | "quantity" | "lifecycle-state";

/**
 * The kind of every annotation of the contract: one place that says which annotations are flags,
 * integers or quantities, so the readers and tools that explain them cannot drift apart.
 * Declarative on purpose: a `Record` over {@link Annotation} fails to compile when a key is added
 * without its kind.
 *
 * @internal
 */
export const ANNOTATION_KINDS = {
  [Annotation.Mode]: "text",
  [Annotation.Image]: "text",
  [Annotation.Storage]: "quantity",
  [Annotation.Managed]: "flag",
  [Annotation.OS]: "text",
  [Annotation.SnapshotPolicy]: "text",
  [Annotation.Network]: "text",
  [Annotation.ForcePull]: "flag",
  [Annotation.CocoonSetGeneration]: "int64",
  [Annotation.HibernatedOnNode]: "text",
  [Annotation.VMID]: "text",
  [Annotation.VMName]: "text",
  [Annotation.IP]: "text",
  [Annotation.VNCPort]: "int32",
  [Annotation.Hibernate]: "flag",
  [Annotation.RestoreFromHibernate]: "flag",
  [Annotation.KeepSnapshotOnDelete]: "flag",
  [Annotation.ForkFrom]: "text",
  [Annotation.CloneFromDir]: "text",
  [Annotation.ConnType]: "text",
  [Annotation.Backend]: "text",
  [Annotation.NoDirectIO]: "flag",
  [Annotation.ProbePort]: "text",
  [Annotation.LifecycleState]: "lifecycle-state",
  [Annotation.LifecycleObservedGeneration]: "int64",
  [Annotation.LifecycleStateMessage]: "text",
} as const satisfies Readonly<Record<Annotation, AnnotationValueKind>>;

/**
 * The annotations of one kind, as a type: `AnnotationOfKind<"flag">` is the union of the flag keys,
 * so code that reads a key as a flag can say so and be checked against {@link ANNOTATION_KINDS}.
 *
 * @internal
 */
export type AnnotationOfKind<K extends AnnotationValueKind> = {
  [A in Annotation]: (typeof ANNOTATION_KINDS)[A] extends K ? A : never;
}[Annotation];

/** Returns the kind of `key`, or `undefined` when it is not an annotation of the contract. */
export function annotationKind(key: string): AnnotationValueKind | undefined {
  return Object.hasOwn(ANNOTATION_KINDS, key) ? (ANNOTATION_KINDS as Readonly<Record<string, AnnotationValueKind>>)[key] : undefined;
}

/**
 * The json names of `metav1.ObjectMeta`'s fields, in Go's order: what the API server's strict
 * decoding accepts under `metadata`.
 *
 * @internal
 */
export const OBJECT_META_FIELDS = [
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
] as const;

/** One of the {@link OBJECT_META_FIELDS}. */
export type ObjectMetaField = (typeof OBJECT_META_FIELDS)[number];

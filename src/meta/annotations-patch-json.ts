import { marshalGoMapEntries } from "../internal/go/index.js";
import type { AnnotationDelta } from "./annotations.js";
import { checkedEntries } from "./internal/annotation-delta.js";

/**
 * Returns the bytes of Go's `AnnotationsMergePatch` for a delta: the same patch as
 * {@link annotationsMergePatch}, written by Go's rules (keys sorted by UTF-8 bytes, HTML
 * characters, U+2028 and U+2029 escaped, `null` deleting a key).
 *
 * A JavaScript object cannot hold Go's key order when keys look like integers (`"10"` is
 * enumerated before `"9"`), so send these bytes, not `JSON.stringify` of the object, when the
 * bytes must be Go's.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ANNOTATION_DELTA` for a missing, empty or ill-typed delta;
 * `ERR_INVALID_ARGUMENT` for two keys that differ only in lone surrogates (equal once UTF-8).
 * @example
 * ```ts
 * annotationsMergePatchJSON({ "vm.cocoonstack.io/hibernate": null, "a/b": "<x>" });
 * // => '{"metadata":{"annotations":{"a/b":"\\u003cx\\u003e","vm.cocoonstack.io/hibernate":null}}}'
 * ```
 */
export function annotationsMergePatchJSON(delta: AnnotationDelta): string {
  // Straight from the checked entries to Go's bytes through the encoder's map writer: no
  // intermediate object, Map or second sort.
  return `{"metadata":{"annotations":${marshalGoMapEntries(checkedEntries(delta, false), "patch.metadata.annotations")}}}`;
}

import { z } from "zod";
import type { GoTag } from "../../internal/go/index.js";

// The Go declarations of the schemas' fields, in a registry of their own: the global registry's
// metadata would land in the CRDs' JSON schemas.

/**
 * The registry of Go tags; its `get` is the lookup the Go table derivation reads.
 *
 * @internal
 */
export const goTags = z.registry<GoTag>();

/**
 * Tags `schema` with its Go declaration (added to any tag it has) and returns it; a schema derived
 * from it by `.describe()`, `.min()` and the like keeps the tag.
 *
 * @internal
 */
export function goTag<S extends z.ZodType>(schema: S, tag: GoTag): S {
  goTags.add(schema, { ...goTags.get(schema), ...tag });
  return schema;
}

/**
 * The tag of `schema`, for `goTypeOf(schema, goTagOf)`.
 *
 * @internal
 */
export const goTagOf = (schema: object): GoTag | undefined => goTags.get(schema as z.ZodType);

/**
 * Tags `schema` as a field whose json tag has no `omitempty`: Go writes it even when empty.
 *
 * @internal
 */
export const goAlways = <S extends z.ZodType>(schema: S): S => goTag(schema, { always: true });

/**
 * Tags `schema` as a pointer field (`*T`): Go writes its zero value instead of omitting it.
 *
 * @internal
 */
export const goPointer = <S extends z.ZodType>(schema: S): S => goTag(schema, { ptr: true });

/**
 * A top-level kind's Go field order: `metav1.TypeMeta` (inlined, `kind` before `apiVersion`), then
 * `metadata`, `spec`, `status`.
 *
 * @internal
 */
export const TYPE_META_ORDER = ["kind", "apiVersion", "metadata", "spec", "status"] as const;

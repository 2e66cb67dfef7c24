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

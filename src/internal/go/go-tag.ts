// The Go side of a zod schema, kept beside it: the schema's object key order is the Go struct's
// field order, and a tag says what zod cannot (omitempty or not, a pointer, an int32, a quantity).
// Tags sit in a WeakMap, as a zod registry would hold them, so this layer loads no package.
import type { GoType } from "./go-type.js";

/** What a struct field's Go declaration says that its zod schema does not. */
export interface GoTag {
  /** The json tag has no `omitempty`: the field is written even when empty. */
  readonly always?: true;
  /** The field is a pointer (`*T`): a zero value is written, not omitted. */
  readonly ptr?: true;
  /** The Go type, where zod's type does not tell it (`int32`, `resource.Quantity`, `metav1.Time`). */
  readonly type?: GoType;
}

const tags = new WeakMap<object, GoTag>();

/**
 * Tags `schema` with its Go declaration and returns it. Tag a schema made for the field (not a
 * shared constant): a tag belongs to the schema object.
 *
 * @internal
 */
export function goTag<S extends object>(schema: S, tag: GoTag): S {
  tags.set(schema, { ...tags.get(schema), ...tag });
  return schema;
}

/**
 * The Go tag of `schema`, `{}` when it has none.
 *
 * @internal
 */
export const goTagOf = (schema: object): GoTag => tags.get(schema) ?? {};

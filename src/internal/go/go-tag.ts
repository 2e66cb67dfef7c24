// The Go side of a zod schema, kept beside it: the schema's object key order is the Go struct's
// field order, and a tag says what zod cannot (omitempty or not, a pointer, an int32, a quantity).
// The tags live in a zod registry (src/apis/v1/go-tags.ts), which this layer reads through a
// lookup, so that it loads no package.
import type { GoField, GoType } from "./go-type.js";

/** What a struct field's Go declaration says that its zod schema does not. */
export interface GoTag {
  /** The json tag has no `omitempty`: the field is written even when empty. */
  readonly always?: true;
  /** The field is a pointer (`*T`): a zero value is written, not omitted. */
  readonly ptr?: true;
  /** The Go type, where zod's type does not tell it (`int32`, `resource.Quantity`, `metav1.Time`). */
  readonly type?: GoType;
  /**
   * An object's Go fields in Go's order, where it differs from the shape's or where Go's struct has
   * fields the schema does not parse: a name stands for the shape's field, a {@link GoField} for a
   * Go-only one. Every field of the shape is named once.
   */
  readonly fields?: readonly (string | GoField)[];
}

/**
 * The tag of a schema, `undefined` when it has none: a zod registry's `get`, which also finds a
 * tag given to the schema a `.describe()` or `.min()` was called on.
 *
 * @internal
 */
export type GoTagLookup = (schema: object) => GoTag | undefined;

// A refinement, named: a generated check cannot read the function inside a zod `.refine`, so the
// schema names the predicate it refines with, and the generated code calls that same function.

/** The predicate a refined schema calls, by the name the generated code imports it under. */
export interface CheckTag {
  /** The function's name, as the generated module imports it. */
  readonly predicate: string;
  /** The field of the object the predicate takes; none: the object itself. */
  readonly field?: string;
}

const tags = new WeakMap<object, CheckTag>();

/**
 * Records that `schema`'s refinements are exactly `predicate` (by name) and returns `schema`.
 *
 * @internal
 */
export function checkTag<S extends object>(schema: S, tag: CheckTag): S {
  tags.set(schema, tag);
  return schema;
}

/**
 * The refinement `schema` was tagged with, if any.
 *
 * @internal
 */
export const checkTagOf = (schema: object): CheckTag | undefined => tags.get(schema);

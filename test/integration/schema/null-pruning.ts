/**
 * The apiserver's handling of `null` in a custom resource (apiextensions
 * `PruneNonNullableNullsWithoutDefaults`, then defaulting): no field of our CRDs is `nullable`, so
 * a `null` object property is dropped, and a dropped field with a default gets its default. A
 * `null` list item is kept (and fails `type: object`). The zod schemas reject `null` instead (a
 * documented difference); these helpers let the test compare zod on the input the server actually
 * validates, and check that zod's rejection names exactly those properties.
 *
 * @module
 */

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A deep copy of `value` without its `null` object properties (list items untouched). */
export function withoutNullProperties(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNullProperties);
  if (!isObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) if (item !== null) out[key] = withoutNullProperties(item);
  return out;
}

/** The paths of the `null` object properties of `value`, from its root. */
export function nullPropertyPaths(value: Json, path: readonly PropertyKey[] = []): PropertyKey[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPropertyPaths(item, [...path, index]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => (item === null ? [[...path, key]] : nullPropertyPaths(item, [...path, key])));
}

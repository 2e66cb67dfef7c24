import { z } from "zod";

/**
 * Small builders shared by the schemas. Integers are JSON integers within JavaScript's safe range;
 * the apiserver does not enforce the `int32`/`int64` formats on custom resources, so neither do we
 * (only the explicit `Minimum`/`Maximum` markers are bounds).
 *
 * @internal
 */

/** A Go `int32` field: `type: integer, format: int32`. */
export const int32 = () => z.int().meta({ format: "int32" });

/** A Go `int64` field: `type: integer, format: int64`. */
export const int64 = () => z.int().meta({ format: "int64" });

/**
 * Rejects a second item with the same key, as the apiserver does for `x-kubernetes-list-type: map`
 * (`Duplicate value` at the later item's index).
 */
function uniqueListMapKey(key: string) {
  return (items: readonly object[], ctx: z.RefinementCtx): void => {
    if (items.length < 2) return;
    const seen = new Set<unknown>();
    for (const [index, item] of items.entries()) {
      const value = (item as Record<string, unknown>)[key];
      if (seen.has(value)) {
        ctx.addIssue({ code: "custom", path: [index], message: `Duplicate value: ${JSON.stringify({ [key]: value })}` });
      }
      seen.add(value);
    }
  };
}

/** An `x-kubernetes-list-type: map` array keyed by `key`: the CRD markers plus the duplicate-key check. */
export function listMap<T extends z.ZodObject>(item: T, key: keyof z.output<T> & string) {
  return z
    .array(item)
    .superRefine(uniqueListMapKey(key))
    .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [key] });
}

import { z } from "zod";

/**
 * Small builders shared by the schemas. Integers are JSON integers within JavaScript's safe range;
 * the apiserver does not enforce the `int32`/`int64` formats on custom resources, so neither do we
 * (only the explicit `Minimum`/`Maximum` markers are bounds).
 *
 * @internal
 */

/**
 * A JSON integer within JavaScript's safe range (`type: integer` in the CRD). A fraction or an
 * unsafe integer gets zod's usual `invalid_type` issue ("expected int"), reported as continuable:
 * `z.int()` marks it as aborting everything, which would keep the object-level checks (duplicate
 * list-map keys, the CEL gate) from running where the apiserver runs them.
 */
export function integer() {
  return z
    .number()
    .superRefine((value, ctx) => {
      if (!Number.isSafeInteger(value)) ctx.addIssue({ code: "invalid_type", expected: "int", input: value });
    })
    .meta({ type: "integer" });
}

/** A Go `int32` field: `type: integer, format: int32`. */
export const int32 = () => integer().meta({ format: "int32" });

/** A Go `int64` field: `type: integer, format: int64`. */
export const int64 = () => integer().meta({ format: "int64" });

/** The key of an item that lacks it (or is `null`): all such items share one key, as in the apiserver. */
const UNSPECIFIED_KEY = Symbol("unspecified");

/**
 * Rejects items whose key repeats an earlier item's, as the apiserver does for
 * `x-kubernetes-list-type: map` (apiextensions `validateListMap`): `Duplicate value` at the index of
 * the *second* item of each key (a third one is not reported again); items without the key (or
 * `null`) share one "unspecified" key. It runs whatever else is wrong with the items, like the
 * apiserver's check, and leaves lists with a non-object item to the type error.
 */
function uniqueListMapKey(key: string) {
  return (items: readonly unknown[], ctx: z.RefinementCtx): void => {
    if (!Array.isArray(items) || items.length < 2) return;
    if (items.some((item) => item !== null && (typeof item !== "object" || Array.isArray(item)))) return;
    // Scalars compare by value, lists and objects by their JSON text (Go `validateListSet`).
    const scalars = new Map<unknown, number>();
    const compounds = new Map<unknown, number>();
    for (const [index, item] of items.entries()) {
      const record = item as Record<string, unknown> | null;
      const value = record !== null && Object.hasOwn(record, key) ? record[key] : UNSPECIFIED_KEY;
      const [seen, id] = typeof value === "object" && value !== null ? [compounds, JSON.stringify(value)] : [scalars, value];
      const times = (seen.get(id) ?? 0) + 1;
      seen.set(id, times);
      if (times !== 2) continue;
      const shown = value === UNSPECIFIED_KEY ? {} : { [key]: value };
      ctx.addIssue({ code: "custom", path: [index], message: `Duplicate value: ${JSON.stringify(shown)}`, input: item });
    }
  };
}

/** An `x-kubernetes-list-type: map` array keyed by `key`: the CRD markers plus the duplicate-key check. */
export function listMap<T extends z.ZodObject>(item: T, key: keyof z.output<T> & string) {
  return z
    .array(item)
    .superRefine(uniqueListMapKey(key), { when: () => true })
    .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [key] });
}

import { z } from "zod";
import { jsonKeyText } from "./json-key-text.js";
import { addIssue } from "./add-issue.js";

/** The key of an item that lacks it (or is `null`): all such items share one key, as in the apiserver. */
const UNSPECIFIED_KEY = "";

/** The key of one item as text (`undefined`: no JSON text, so never a duplicate); never throws. */
function keyOf(item: unknown, key: string): string | undefined {
  if (item === null) return UNSPECIFIED_KEY;
  try {
    return Object.hasOwn(item as object, key) ? jsonKeyText((item as Record<string, unknown>)[key]) : UNSPECIFIED_KEY;
  } catch {
    return undefined;
  }
}

/**
 * Rejects items whose key repeats an earlier item's, as the apiserver does for
 * `x-kubernetes-list-type: map` (apiextensions `validateListMap`): `Duplicate value` at the index of
 * the *second* item of each key (a third one is not reported again); items without the key (or
 * `null`) share one "unspecified" key. Keys compare by their JSON text, so `1` and `"1"` differ
 * and objects compare by value. It runs whatever else is wrong with the items, like the
 * apiserver's check, leaves lists with a non-object item to the type error, and never throws.
 */
function uniqueListMapKey(key: string) {
  return (items: readonly unknown[], ctx: z.RefinementCtx): void => {
    if (!Array.isArray(items) || items.length < 2) return;
    if (items.some((item) => item !== null && (typeof item !== "object" || Array.isArray(item)))) return;
    const seen = new Map<string, number>();
    for (const [index, item] of items.entries()) {
      const id = keyOf(item, key);
      if (id === undefined) continue;
      const times = (seen.get(id) ?? 0) + 1;
      seen.set(id, times);
      if (times !== 2) continue;
      const shown = id === UNSPECIFIED_KEY ? "{}" : `{${JSON.stringify(key)}:${id}}`;
      addIssue(ctx, { code: "custom", path: [index], message: `Duplicate value: ${shown}`, input: item });
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

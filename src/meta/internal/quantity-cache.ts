import { quantityString } from "../quantity.js";

/** Entries kept at most; the cache is dropped whole when full, so memory stays bounded. */
const MAX_ENTRIES = 256;
/** Longer inputs are not kept, so the cache holds at most MAX_ENTRIES × MAX_KEY_LENGTH characters. */
const MAX_KEY_LENGTH = 64;

const canonical = new Map<string, string>();

/**
 * {@link quantityString} with the canonical text of recent string inputs remembered, as Go keeps
 * it in the decoded `resource.Quantity`: the same text for the same input, so the result is
 * exact. Refused input is never kept and throws on every call, as `quantityString` does.
 *
 * @internal
 */
export function cachedQuantityString(q: string | number | bigint | null | undefined): string {
  if (typeof q !== "string") return quantityString(q);
  const hit = canonical.get(q);
  if (hit !== undefined) return hit;
  const text = quantityString(q);
  if (q.length <= MAX_KEY_LENGTH) {
    if (canonical.size >= MAX_ENTRIES) canonical.clear();
    canonical.set(q, text);
  }
  return text;
}

import { kubeTimeText } from "../../internal/kube-time.js";

/**
 * A value as it means on the wire, for comparison: a `Date` as the API server's time text, keys
 * sorted, and Go's empty values (`null`, `""`, `0`, `false`, empty lists and objects) dropped, so
 * that a field the server fills with its zero value equals one left out.
 */
function meaning(value: unknown): unknown {
  if (value instanceof Date) return kubeTimeText(value);
  if (value === null || value === undefined || value === "" || value === 0 || value === false) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((item) => meaning(item) ?? null);
  if (typeof value !== "object") return value;
  const entries = Object.entries(value)
    .map(([key, item]) => [key, meaning(item)] as const)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/**
 * Whether two values mean the same on the wire: client-node's `Date` equals its text, and a zero
 * value equals an absent one (what the API server writes back for a field that was left out).
 *
 * @internal
 */
export function sameOnWire(a: unknown, b: unknown): boolean {
  return JSON.stringify(meaning(a)) === JSON.stringify(meaning(b));
}

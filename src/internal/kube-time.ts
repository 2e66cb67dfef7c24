/**
 * A `metav1.Time` as the API server writes it: RFC 3339 in UTC at second precision
 * (`2026-08-12T10:00:00Z`). A string is taken as already written; an invalid `Date`, `""`, `null`
 * and `undefined` give `undefined` (Go's zero time, which the API server leaves out).
 *
 * @internal
 */
export function kubeTimeText(time: Date | string | null | undefined): string | undefined {
  if (time instanceof Date) return Number.isNaN(time.getTime()) ? undefined : time.toISOString().replace(/\.\d+Z$/, "Z");
  return time || undefined;
}

// metav1.Time on the wire: RFC 3339 in, whole seconds in UTC out, the zero time as null.
import { formatConditionTime } from "../conditions.js";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
/** 0001-01-01T00:00:00Z, Go's zero `time.Time`, in Unix milliseconds. */
const ZERO_TIME_MS = -62_135_596_800_000;

/**
 * What Go's `metav1.Time` writes after reading `value` (a JSON string or a `Date`): the instant in
 * UTC at second precision (`2026-08-12T10:00:00Z`), `null` for Go's zero time, or `undefined`
 * when Go's `time.Parse(time.RFC3339, …)` would refuse it.
 *
 * @internal
 */
export function goTimeJSON(value: unknown): string | null | undefined {
  const text = value instanceof Date ? (Number.isNaN(value.getTime()) ? undefined : value.toISOString()) : value;
  if (typeof text !== "string") return undefined;
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const sign = m[8] === "-" ? -1 : 1;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, 0);
  const utc = local.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  if (utc === ZERO_TIME_MS) return null;
  const written = formatConditionTime(new Date(utc));
  return /^\d{4}-/.test(written) ? written : undefined; // a year Go cannot write as RFC 3339
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The `format: date-time` check the apiserver runs on custom resources (kube-openapi
 * `strfmt.IsDateTime`), ported verbatim: lower-case the text, split it on `t`, require a valid
 * `2006-01-02` date before the first `t` and `hh:mm:ss[.frac](z|±hh:mm)` after it (hours ≤ 23,
 * minutes and seconds ≤ 59). Anything after a second `t` is ignored, as in Go.
 *
 * @internal
 */

const DATE_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME_RE = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Go `time.Parse("2006-01-02", s) == nil`. */
function isFullDate(text: string): boolean {
  const match = DATE_RE.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= days;
}

/** Reports whether the apiserver accepts `text` for a `format: date-time` field. */
export function isK8sDateTime(text: string): boolean {
  if (text.length < 4) return false;
  const parts = text.toLowerCase().split("t");
  const date = parts[0];
  const time = parts[1];
  if (date === undefined || time === undefined || !isFullDate(date)) return false;
  const match = TIME_RE.exec(time);
  if (match === null) return false;
  return (match[1] ?? "") <= "23" && (match[2] ?? "") <= "59" && (match[3] ?? "") <= "59";
}

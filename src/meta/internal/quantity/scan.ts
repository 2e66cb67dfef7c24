// Ported from k8s.io/apimachinery@v0.35.3 pkg/api/resource/quantity.go, parseQuantityString
// (Apache-2.0, The Kubernetes Authors).

/** Go `resource.ErrFormatWrong`. */
export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Go `resource.ErrNumeric`. */
export const ERR_NUMERIC = "unable to parse numeric part of quantity";
/** Go `resource.ErrSuffix`. */
export const ERR_SUFFIX = "unable to parse quantity's suffix";

/** The pieces of a quantity string, as Go's scanner splits them. */
export interface ScannedQuantity {
  readonly positive: boolean;
  /** Sign, integer digits (with leading zeros), `.` and fraction: what the slow path parses. */
  readonly value: string;
  /** Integer digits without leading zeros, `"0"` when there are none. */
  readonly num: string;
  /** Fraction digits. */
  readonly denom: string;
  readonly suffix: string;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Reports whether `c` is one of `eEinumkKMGTP`. */
function isSuffixChar(c: number): boolean {
  switch (c) {
    case 0x65: // e
    case 0x45: // E
    case 0x69: // i
    case 0x6e: // n
    case 0x75: // u
    case 0x6d: // m
    case 0x6b: // k
    case 0x4b: // K
    case 0x4d: // M
    case 0x47: // G
    case 0x54: // T
    case 0x50: // P
      return true;
    default:
      return false;
  }
}

/**
 * Splits a quantity into sign, number and suffix like Go `parseQuantityString`.
 *
 * Returns `undefined` where Go returns `ErrFormatWrong`. Only ASCII is ever matched, so any
 * other character (UTF-16 here, bytes in Go) leads to the same outcome.
 */
export function scanQuantity(str: string): ScannedQuantity | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  const first = str.charCodeAt(0);
  if (first === 0x2d) {
    positive = false;
    pos++;
  } else if (first === 0x2b) {
    pos++;
  }
  // Leading zeros; running out of input means zero.
  while (pos < end && str.charCodeAt(pos) === 0x30) pos++;
  if (pos >= end) return { positive, value: "0", num: "0", denom: "", suffix: "" };

  let i = pos;
  while (i < end && isDigit(str.charCodeAt(i))) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: "", suffix: "" };
  const num = i > pos ? str.slice(pos, i) : "0";
  pos = i;

  let denom = "";
  if (str.charCodeAt(pos) === 0x2e) {
    pos++;
    i = pos;
    while (i < end && isDigit(str.charCodeAt(i))) i++;
    if (i >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: "" };
    denom = str.slice(pos, i); // Go allows "1.G" (empty fraction)
    pos = i;
  }
  const value = str.slice(0, pos);

  const suffixStart = pos;
  i = pos;
  while (i < end && isSuffixChar(str.charCodeAt(i))) i++;
  if (i < end) {
    pos = i;
    const c = str.charCodeAt(pos);
    if (c === 0x2d || c === 0x2b) pos++;
    i = pos;
    while (i < end && isDigit(str.charCodeAt(i))) i++;
    if (i < end) return undefined;
  }
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

import { CocoonError } from "../../errors.js";
import { INT32_MAX, INT32_MIN, inIntRange } from "./int-range.js";

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** Digits of the longest int64 and int32 (`9223372036854775807`, `2147483647`). */
const INT64_MAX_DIGITS = 19;
const INT32_MAX_DIGITS = 10;

/**
 * Checks Go's decimal syntax (one optional sign, then ASCII digits) and returns the sign and the
 * digits without leading zeros (`"-0"` for zero), or `undefined` when `s` is not a string, not
 * decimal, or has more than `maxDigits` significant digits, which is out of range. Like Go's
 * `ParseInt`, it stops at the first digit past the range: the cost is the leading zeros plus at
 * most `maxDigits` digits, however long `s` is.
 */
function significantDigits(s: unknown, maxDigits: number): string | undefined {
  if (typeof s !== "string") return undefined;
  const first = s.charCodeAt(0);
  const signed = first === 0x2b || first === 0x2d;
  let i = signed ? 1 : 0;
  if (i >= s.length) return undefined; // "" or a lone sign
  while (i < s.length - 1 && s.charCodeAt(i) === 0x30) i++; // keep the last digit: "000" is "0"
  const start = i;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || i - start >= maxDigits) return undefined;
  }
  const digits = start === 0 ? s : s.slice(start);
  return first === 0x2d ? `-${digits}` : digits;
}

/**
 * Parses a decimal int64 exactly like Go `strconv.ParseInt(s, 10, 64)`.
 *
 * Accepts one optional leading `+`/`-`, then ASCII digits (leading zeros allowed). Whitespace,
 * `_`, `0x`, exponents, decimal points, non-ASCII digits, a lone sign and out-of-range values
 * are all errors, reported as `undefined`.
 *
 * @example
 * ```ts
 * parseInt64("+42"); // => 42n
 * parseInt64(" 42"); // => undefined
 * parseInt64("9223372036854775808"); // => undefined (out of range)
 * ```
 */
export function parseInt64(s: string): bigint | undefined {
  const digits = significantDigits(s, INT64_MAX_DIGITS);
  if (digits === undefined) return undefined;
  // Up to 15 digits the value is exact as a double, and converting it is about twice as fast as
  // parsing the string as a BigInt. Up to 18 digits it always fits in an int64.
  if (digits.length <= 15) return BigInt(Number(digits));
  const value = BigInt(digits);
  return inIntRange(value, "int64") ? value : undefined;
}

/**
 * Parses one optional sign and 1 to 15 ASCII digits, exact as a `number` and what
 * {@link parseInt64} gives for them (`"-0"` is 0); `undefined` for anything else, which the caller
 * then parses with {@link parseInt64}. The readers' fast path: no bigint, no slice.
 */
export function shortDecimal(s: string): number | undefined {
  const first = s.charCodeAt(0);
  const start = first === 0x2b || first === 0x2d ? 1 : 0;
  const length = s.length - start;
  if (length < 1 || length > 15) return undefined;
  let value = 0;
  for (let i = start; i < s.length; i++) {
    const digit = s.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return first === 0x2d && value !== 0 ? -value : value;
}

/**
 * Parses a decimal int32 exactly like Go `strconv.ParseInt(s, 10, 32)`; `undefined` on error.
 *
 * @example
 * ```ts
 * parseInt32("-2147483648"); // => -2147483648
 * parseInt32("2147483648"); // => undefined
 * ```
 */
export function parseInt32(s: string): number | undefined {
  const digits = significantDigits(s, INT32_MAX_DIGITS);
  if (digits === undefined) return undefined;
  // Number() is exact far beyond the int32 range, so the range check below is exact too.
  const value = Number(digits);
  if (value < INT32_MIN || value > INT32_MAX) return undefined;
  return value === 0 ? 0 : value; // "-0" is 0, never -0
}

/**
 * Parses a decimal `int` like Go `strconv.Atoi` on a 64-bit platform; `undefined` on error.
 *
 * The syntax is the same as {@link parseInt64}: `"+1"` and `"01"` are 1, `" 1"` is an error.
 */
export function atoi(s: string): bigint | undefined {
  return parseInt64(s);
}

/**
 * Parses a boolean exactly like Go `strconv.ParseBool`; `undefined` on error.
 *
 * Only `1 t T TRUE true True` and `0 f F FALSE false False` are accepted.
 */
export function parseBool(s: string): boolean | undefined {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false;
    default:
      return undefined;
  }
}

/**
 * Formats an integer in decimal like Go `strconv.FormatInt(n, 10)`.
 *
 * Never uses exponent notation: an integer `number` beyond 2^53 prints its exact digits.
 * Throws `ERR_INVALID_INTEGER` for a `number` that is not an integer.
 */
export function formatInt(n: bigint | number): string {
  if (typeof n === "bigint") return n.toString();
  if (Number.isSafeInteger(n)) return n === 0 ? "0" : String(n);
  if (!Number.isInteger(n)) throw new CocoonError("ERR_INVALID_INTEGER", `${String(n)} is not an integer`);
  return BigInt(n).toString();
}

/**
 * Validates a caller-supplied integer that is about to be written as a Go `int64`/`int32`.
 *
 * Throws `ERR_INVALID_INTEGER`, naming `field` and the value, when the value is not an integer,
 * is a `number` outside the safe-integer range (it has already lost precision; pass a `bigint`),
 * or is outside the int32/int64 range.
 *
 * @param value - The integer to check.
 * @param field - What the value is, for the message (e.g. `"cocoonset generation"`).
 * @param bits - Width of the Go integer type.
 * @returns The value as a `bigint`.
 * @example
 * ```ts
 * toGoInteger(7, "cocoonset generation", 64); // => 7n
 * toGoInteger(1.5, "cocoonset generation", 64); // throws "cocoonset generation 1.5 is not an integer"
 * ```
 */
export function toGoInteger(value: number | bigint, field: string, bits: 32 | 64): bigint {
  let result: bigint;
  if (typeof value === "bigint") {
    result = value;
  } else if (typeof value === "number" && Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) {
      throw new CocoonError(
        "ERR_INVALID_INTEGER",
        `${field} ${String(value)} is not a safe integer (it has lost precision; pass a bigint)`,
      );
    }
    result = BigInt(value);
  } else {
    throw new CocoonError("ERR_INVALID_INTEGER", `${field} ${String(value)} is not an integer`);
  }
  if (!inIntRange(result, bits === 32 ? "int32" : "int64")) {
    throw new CocoonError("ERR_INVALID_INTEGER", `${field} ${result.toString()} is out of range for int${String(bits)}`);
  }
  return result;
}

/**
 * Returns an int64 as a `number` when it is within ±(2^53−1), otherwise as the `bigint`.
 *
 * A value beyond 2^53 never silently becomes a different number.
 */
export function int64ToNumberOrBigInt(v: bigint): number | bigint {
  return v >= -SAFE_MAX && v <= SAFE_MAX ? Number(v) : v;
}

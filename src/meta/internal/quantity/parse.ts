// Ported from k8s.io/apimachinery@v0.35.3 pkg/api/resource/quantity.go, ParseQuantity
// (Apache-2.0, The Kubernetes Authors). Go keeps small values in an int64 ("fast path") and
// everything else in an inf.Dec rounded up to nano units ("slow path"); both are mirrored here
// so that String() output, including the cached-input rule, is byte-for-byte Go's.
import { formatBinaryInteger, formatDecimal, incrementDigits, stripLeadingZeros, wrap32 } from "./canonical.js";
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, type ScannedQuantity, scanQuantity } from "./scan.js";
import { QuantityFormat, interpretSuffix } from "./suffix.js";

/** A parsed quantity: its Go `Format` and what Go's `String()` returns; or Go's error text. */
export type ParseResult = { readonly format: QuantityFormat; readonly text: string } | { readonly error: string };

const NANO = 10n ** 9n;
const BINARY_CAP_NANO = (2n ** 63n - 1n) * NANO; // Go caps BinarySI magnitudes at 2^63−1
const MAX_INT64_TEXT = "9223372036854775807";
const HAS_DIGIT = /[0-9]/;

/** Parses `str` exactly like Go `resource.ParseQuantity` followed by `String()`. */
export function parseGoQuantity(str: string): ParseResult {
  if (str.length === 0) return { error: ERR_FORMAT_WRONG };
  if (str === "0") return { format: QuantityFormat.DecimalSI, text: str };
  const kept = keptFormat(str);
  if (kept !== undefined) return { format: kept, text: str };
  const scanned = scanQuantity(str);
  if (scanned === undefined) return { error: ERR_FORMAT_WRONG };
  const suffix = interpretSuffix(scanned.suffix);
  if (suffix === undefined) return { error: ERR_SUFFIX };
  const { num, denom } = scanned;

  if (suffix.base === 2) {
    // Go: precision = 15 - len(num) - exponent*3/10 - 1; no fraction on the fast path.
    if (denom.length === 0 && 14 - num.length - (suffix.exponent * 3) / 10 >= 0) {
      return fastBinary(str, scanned.positive, num, suffix.exponent);
    }
    return slowBinary(scanned, suffix.exponent);
  }
  if (num.length + denom.length <= 18) {
    const scale = wrap32(suffix.exponent - denom.length);
    if (scale >= -9) return fastDecimal(str, scanned.positive, num + denom, scale, suffix.format);
  }
  return slowDecimal(scanned, suffix.exponent, suffix.format);
}

/**
 * The commonest shapes, answered without scanning into pieces: 1 to 18 digits with no sign, no
 * leading zero and no trailing `000`, then nothing or one of `n u m k M G T P E` (DecimalSI), or
 * `e`/`E` and 1 to 9 digits making a multiple of 3 (DecimalExponent). Go's int64 path keeps such
 * text verbatim (the scale is a multiple of 3 and nothing moves), which is what
 * {@link fastDecimal} returns for it; `undefined` sends anything else down the full parser.
 */
function keptFormat(str: string): QuantityFormat | undefined {
  let digits = 0;
  while (digits < str.length && isDigitCode(str.charCodeAt(digits))) digits++;
  if (digits === 0 || digits > 18 || str.charCodeAt(0) === 0x30 || str.endsWith("000", digits)) return undefined;
  const rest = str.length - digits;
  if (rest === 0 || (rest === 1 && DECIMAL_SI_LETTERS.includes(str.charAt(digits)))) return QuantityFormat.DecimalSI;
  if (rest === 2 && str.charCodeAt(digits + 1) === 0x69) return keptBinary(str, digits);
  const e = str.charCodeAt(digits);
  if ((e !== 0x65 && e !== 0x45) || rest < 2 || rest > 10) return undefined;
  let exponent = 0;
  for (let i = digits + 1; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (!isDigitCode(c)) return undefined;
    exponent = exponent * 10 + c - 0x30;
  }
  return exponent % 3 === 0 ? QuantityFormat.DecimalExponent : undefined;
}

const DECIMAL_SI_LETTERS = "numkMGTPE";
const BINARY_SI_LETTERS = "KMGTPE";

/**
 * `<digits><K|M|G|T|P|E>i` on Go's int64 path (at most 14 − 3·exponent/10 digits) whose value is
 * no multiple of 1024: nothing moves into the suffix, so Go prints it verbatim as BinarySI.
 */
function keptBinary(str: string, digits: number): QuantityFormat | undefined {
  const power = BINARY_SI_LETTERS.indexOf(str.charAt(digits)) + 1;
  if (power === 0 || digits > 14 - power * 3) return undefined;
  return Number(str.slice(0, digits)) % 1024 !== 0 ? QuantityFormat.BinarySI : undefined;
}
const isDigitCode = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** int64 path, base 10: `shifted × 10^scale`, the input kept verbatim when already canonical enough. */
function fastDecimal(str: string, positive: boolean, shifted: string, scale: number, format: QuantityFormat) {
  if (scale % 3 === 0 && !shifted.endsWith("000") && shifted.charCodeAt(0) !== 0x30) return { format, text: str };
  const digits = stripLeadingZeros(shifted);
  if (digits === "") return { format, text: "0" };
  return { format, text: formatDecimal(!positive, digits, scale, format, true) };
}

/** int64 path, base 2: `num × 2^exponent`, at most ~1.1e14 so a `number` is exact. */
function fastBinary(str: string, positive: boolean, num: string, exponent: number) {
  const format = QuantityFormat.BinarySI;
  const value = Number(num);
  if (value % 8 !== 0) return { format, text: str }; // Go: exponent%10 == 0 && value&7 != 0
  if (value === 0) return { format, text: "0" };
  return { format, text: formatBinaryInteger(!positive, value * 2 ** exponent) };
}

/** inf.Dec path, base 10: no cap, magnitudes below 1n rounded up (away from zero) to nano. */
function slowDecimal(scanned: ScannedQuantity, exponent: number, format: QuantityFormat): ParseResult {
  if (!HAS_DIGIT.test(scanned.value)) return { error: ERR_NUMERIC };
  let digits = stripLeadingZeros(scanned.num + scanned.denom);
  if (digits === "") return { format, text: "0" };
  // Kept symbolic (digits × 10^e) so that huge exponents never materialise huge integers.
  let e = exponent - scanned.denom.length;
  if (e < -9) {
    const dropped = -9 - e;
    if (dropped >= digits.length) {
      digits = "1";
    } else {
      const head = digits.slice(0, digits.length - dropped);
      const roundsUp = /[1-9]/.test(digits.slice(digits.length - dropped));
      digits = roundsUp ? incrementDigits(head) : head;
    }
    e = -9;
  }
  return { format, text: formatDecimal(!scanned.positive, digits, e, format, false) };
}

/** inf.Dec path, base 2: rounded up to nano, capped at 2^63−1, below 1 re-labelled DecimalSI. */
function slowBinary(scanned: ScannedQuantity, exponent: number): ParseResult {
  if (!HAS_DIGIT.test(scanned.value)) return { error: ERR_NUMERIC };
  const negative = !scanned.positive;
  let format: QuantityFormat = QuantityFormat.BinarySI;
  let nanos = BigInt(scanned.num + scanned.denom) << BigInt(exponent);
  if (nanos === 0n) return { format, text: "0" };
  const places = scanned.denom.length;
  if (places <= 9) {
    nanos *= 10n ** BigInt(9 - places);
  } else {
    const divisor = 10n ** BigInt(places - 9);
    nanos = (nanos + divisor - 1n) / divisor;
  }
  if (nanos > BINARY_CAP_NANO) return { format, text: (negative ? "-" : "") + MAX_INT64_TEXT };
  if (nanos < NANO) format = QuantityFormat.DecimalSI;
  // CanonicalizeBytes: below 1024 or not an integer, a BinarySI value prints as DecimalSI.
  if (nanos < 1024n * NANO || nanos % NANO !== 0n) {
    return { format, text: formatDecimal(negative, nanos.toString(), -9, QuantityFormat.DecimalSI, false) };
  }
  return { format, text: formatBinaryInteger(negative, nanos / NANO) };
}

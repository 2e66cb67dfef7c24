// Ported from k8s.io/apimachinery@v0.35.3 pkg/api/resource/suffix.go (Apache-2.0, The Kubernetes Authors).
import { parseInt64 } from "../../../internal/go/index.js";

/** How a Kubernetes quantity is written; Go `resource.Format`. */
export const QuantityFormat = {
  /** e.g. `12e6`. */
  DecimalExponent: "DecimalExponent",
  /** e.g. `12Mi` (12 × 2^20). */
  BinarySI: "BinarySI",
  /** e.g. `12M` (12 × 10^6). */
  DecimalSI: "DecimalSI",
} as const;
/** One of the {@link QuantityFormat} values. */
export type QuantityFormat = (typeof QuantityFormat)[keyof typeof QuantityFormat];

/** A parsed suffix: the value is multiplied by `base ** exponent`. */
export interface Suffix {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const dec = (exponent: number): Suffix => ({ base: 10, exponent, format: QuantityFormat.DecimalSI });
const bin = (exponent: number): Suffix => ({ base: 2, exponent, format: QuantityFormat.BinarySI });

const KNOWN: ReadonlyMap<string, Suffix> = new Map([
  ["", dec(0)],
  ["n", dec(-9)],
  ["u", dec(-6)],
  ["m", dec(-3)],
  ["k", dec(3)],
  ["M", dec(6)],
  ["G", dec(9)],
  ["T", dec(12)],
  ["P", dec(15)],
  ["E", dec(18)],
  ["Ki", bin(10)],
  ["Mi", bin(20)],
  ["Gi", bin(30)],
  ["Ti", bin(40)],
  ["Pi", bin(50)],
  ["Ei", bin(60)],
]);

const DECIMAL_SI_SUFFIX: ReadonlyMap<number, string> = new Map(
  [...KNOWN].filter(([, s]) => s.base === 10).map(([text, s]) => [s.exponent, text]),
);
const BINARY_SI_SUFFIX = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] as const;

/**
 * Interprets a quantity suffix like Go `suffixHandler.interpret`; `undefined` when unknown.
 *
 * `e`/`E` followed by a Go int64 is an exponent, truncated to int32 as Go does
 * (`1e4294967297` has exponent 1).
 */
export function interpretSuffix(suffix: string): Suffix | undefined {
  const known = KNOWN.get(suffix);
  if (known !== undefined) return known;
  const first = suffix.charCodeAt(0);
  if (suffix.length > 1 && (first === 0x65 || first === 0x45)) {
    const short = shortExponent(suffix);
    if (short !== undefined) return { base: 10, exponent: short, format: QuantityFormat.DecimalExponent };
    const parsed = parseInt64(suffix.slice(1));
    if (parsed === undefined) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: QuantityFormat.DecimalExponent };
  }
  return undefined;
}

/** The exponent of `e<digits>` with 1 to 9 ASCII digits (below 2^31, so no int32 wrap), else `undefined`. */
function shortExponent(suffix: string): number | undefined {
  if (suffix.length > 10) return undefined;
  let value = 0;
  for (let i = 1; i < suffix.length; i++) {
    const digit = suffix.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Builds the suffix for a base-10 exponent like Go `constructBytes(10, exponent, format)`.
 *
 * DecimalSI has no suffix beyond `E` (10^18): Go then prints the bare mantissa, so `1000E`
 * prints as `1`. This quirk is kept on purpose.
 */
export function decimalSuffix(exponent: number, format: QuantityFormat): string {
  if (format === QuantityFormat.DecimalExponent) return exponent === 0 ? "" : `e${String(exponent)}`;
  return DECIMAL_SI_SUFFIX.get(exponent) ?? "";
}

/** Builds the suffix for a power of 1024 (0 → none, 1 → `Ki`, …, 6 → `Ei`). */
export function binarySuffix(power: number): string {
  return BINARY_SI_SUFFIX[power] ?? "";
}

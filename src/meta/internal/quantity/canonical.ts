// Ported from k8s.io/apimachinery@v0.35.3 pkg/api/resource/quantity.go (CanonicalizeBytes) and
// amount.go (AsCanonicalBytes, AsCanonicalBase1024Bytes) (Apache-2.0, The Kubernetes Authors).
import { QuantityFormat, binarySuffix, decimalSuffix } from "./suffix.js";

/** Truncates to a Go `int32`, wrapping around like Go's fixed-width arithmetic. */
export const wrap32 = (n: number): number => n | 0;

/**
 * Prints `±digits × 10^exponent` in canonical decimal form like Go `AsCanonicalBytes`.
 *
 * Trailing zeros move into the exponent, then the exponent is lowered to a multiple of 3.
 * `digits` has no leading zeros and is not zero. With `int32` the exponent arithmetic wraps
 * like Go's int64 fast path does; the big-decimal path never reaches the wrap in practice.
 */
export function formatDecimal(negative: boolean, digits: string, exponent: number, format: QuantityFormat, int32: boolean): string {
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 0x30) end--;
  let e = exponent + (digits.length - end);
  if (int32) e = wrap32(e);
  let mantissa = digits.slice(0, end);
  switch (e % 3) {
    case 1:
    case -2:
      mantissa += "0";
      e -= 1;
      break;
    case 2:
    case -1:
      mantissa += "00";
      e -= 2;
      break;
  }
  if (int32) e = wrap32(e);
  const suffixFormat = format === QuantityFormat.DecimalExponent ? format : QuantityFormat.DecimalSI;
  return (negative ? "-" : "") + mantissa + decimalSuffix(e, suffixFormat);
}

/**
 * Prints a non-zero integer held by a BinarySI quantity like Go `CanonicalizeBytes`.
 *
 * Below 1024 in magnitude it is printed as DecimalSI; otherwise every factor of 1024 becomes a
 * suffix (`Ki` … `Ei`). `abs` is at most 2^63−1.
 */
export function formatBinaryInteger(negative: boolean, abs: bigint | number): string {
  if (abs < 1024) return formatDecimal(negative, abs.toString(), 0, QuantityFormat.DecimalSI, true);
  let power = 0;
  let mantissa: bigint | number = abs;
  if (typeof mantissa === "number") {
    while (mantissa >= 1024 && mantissa % 1024 === 0) {
      mantissa /= 1024;
      power++;
    }
  } else {
    while (mantissa >= 1024n && mantissa % 1024n === 0n) {
      mantissa /= 1024n;
      power++;
    }
  }
  return (negative ? "-" : "") + mantissa.toString() + binarySuffix(power);
}

/** Adds one to a non-empty decimal digit string. */
export function incrementDigits(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits.charCodeAt(i) === 0x39) i--;
  if (i < 0) return "1" + "0".repeat(digits.length);
  return digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + "0".repeat(digits.length - i - 1);
}

/** Strips leading zeros; `""` when the string is all zeros. */
export function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 0x30) i++;
  return i === 0 ? digits : digits.slice(i);
}

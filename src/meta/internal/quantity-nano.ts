// The exact value of a quantity, as Go's resource.Quantity holds it after parsing: rounded up
// (away from zero) to nano units and capped at the int64 maximum. Two quantities are equal
// (Go's Cmp) when their nano counts are.
import { cachedQuantityString } from "./quantity-cache.js";
import { trimLikeUnmarshalJSON } from "./quantity/json-text.js";
import { scanQuantity } from "./quantity/scan.js";
import { interpretSuffix } from "./quantity/suffix.js";

const NANO_PER_UNIT_DIGITS = 9;
const MAX_NANO = (2n ** 63n - 1n) * 10n ** 9n;

/**
 * The value of a quantity in nano units, signed. Checks the quantity first as Go's decoder does.
 *
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for text Go cannot parse.
 * @internal
 */
export function quantityNano(q: string | number | bigint): bigint {
  if (typeof q !== "string") return nanoOf(q);
  const hit = cache.get(q);
  if (hit !== undefined) return hit;
  const nano = nanoOf(q);
  if (q.length <= MAX_KEY_LENGTH) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(q, nano);
  }
  return nano;
}

/** Entries kept at most, as in quantity-cache.ts: dropped whole when full. */
const MAX_ENTRIES = 256;
const MAX_KEY_LENGTH = 64;
const cache = new Map<string, bigint>();

function nanoOf(q: string | number | bigint): bigint {
  cachedQuantityString(q);
  const text = typeof q === "string" ? trimLikeUnmarshalJSON(q) : q.toString();
  const scanned = scanQuantity(text);
  const suffix = scanned && interpretSuffix(scanned.suffix);
  if (!scanned || !suffix) return 0n; // unreachable: the text parsed above
  let mantissa = BigInt(scanned.num + scanned.denom);
  if (mantissa === 0n) return 0n;
  let exponent = NANO_PER_UNIT_DIGITS - scanned.denom.length;
  if (suffix.base === 2) mantissa <<= BigInt(suffix.exponent);
  else exponent += suffix.exponent;
  let nano: bigint;
  if (exponent >= 0) {
    nano = exponent > 40 ? MAX_NANO : mantissa * 10n ** BigInt(exponent);
  } else if (-exponent > mantissa.toString().length) {
    nano = 1n;
  } else {
    const divisor = 10n ** BigInt(-exponent);
    nano = (mantissa + divisor - 1n) / divisor;
  }
  if (nano > MAX_NANO) nano = MAX_NANO;
  return scanned.positive ? nano : -nano;
}

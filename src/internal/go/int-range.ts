// Go's fixed-size integer limits, written once for every port of Go's integer rules (strconv,
// the typed decoder, the MergeFrom round trip, the snapshot's sparse size).

/** `math.MinInt32`. */
export const INT32_MIN = -(2 ** 31);
/** `math.MaxInt32`. */
export const INT32_MAX = 2 ** 31 - 1;
/** `math.MinInt64`. */
export const INT64_MIN = -(2n ** 63n);
/** `math.MaxInt64`. */
export const INT64_MAX = 2n ** 63n - 1n;

/** The inclusive range of each Go integer type the ports read, as bigints. */
export const INT_RANGE = {
  int32: [BigInt(INT32_MIN), BigInt(INT32_MAX)],
  int64: [INT64_MIN, INT64_MAX],
  uint8: [0n, 255n],
} as const satisfies Record<string, readonly [bigint, bigint]>;

/** Whether `n` fits in the Go integer type `kind`. */
export function inIntRange(n: bigint, kind: keyof typeof INT_RANGE): boolean {
  const [min, max] = INT_RANGE[kind];
  return n >= min && n <= max;
}

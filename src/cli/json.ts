const BIGINT_MARK = "\u0000bigint:";

/**
 * Serialises `value` as indented JSON; a `bigint` (a Go `int64` beyond 2^53) is written as a
 * plain JSON number with all its digits, never rounded and never quoted.
 *
 * @example
 * ```ts
 * toJSON({ generation: 9007199254740993n }); // => '{\n  "generation": 9007199254740993\n}'
 * ```
 */
export function toJSON(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${BIGINT_MARK}${v}` : v), 2);
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}

import { CocoonError } from "../errors.js";
import { trimLikeUnmarshalJSON } from "./internal/quantity/json-text.js";
import { parseGoQuantity } from "./internal/quantity/parse.js";
import { QuantityFormat } from "./internal/quantity/suffix.js";

export { QuantityFormat };
export { QUANTITY_PATTERN } from "../internal/crd-markers.js";

/** A parsed Kubernetes quantity. */
export interface ParsedQuantity {
  /** The Go `Format` it was parsed into (a BinarySI value below 1 becomes DecimalSI). */
  readonly format: QuantityFormat;
  /** What Go's `String()` returns: the canonical form, or the input itself when Go caches it. */
  readonly text: string;
}

/**
 * Parses a quantity exactly like Go `resource.ParseQuantity` (no trimming).
 *
 * Throws `ERR_INVALID_QUANTITY` with Go's reason when `text` is not a quantity.
 *
 * @example
 * ```ts
 * parseQuantity("1.5Gi"); // => { format: "BinarySI", text: "1536Mi" }
 * parseQuantity("1.500G"); // => { format: "DecimalSI", text: "1.500G" } (kept as written, like Go)
 * ```
 */
export function parseQuantity(text: string): ParsedQuantity {
  return parseOrThrow(text, text);
}

/** Reports whether Go `resource.ParseQuantity` accepts `text`. Never throws: a value that is not a string is no quantity. */
export function isQuantity(text: string): boolean {
  return typeof text === "string" && !("error" in parseGoQuantity(text));
}

/**
 * Returns a quantity's text exactly as Go prints it; `""` for `null`/`undefined`.
 *
 * Go `meta.QuantityString` after `json.Unmarshal` into a `resource.Quantity`: a string is trimmed
 * of surrounding spaces as `UnmarshalJSON` does, a number is parsed from its JSON text (so `1.5`
 * gives `1500m`). The result is canonical (`1000M` → `1G`, `1024Mi` → `1Gi`) unless Go keeps the
 * input verbatim (`1.500G`, `+100Gi`). Throws `ERR_INVALID_QUANTITY` with Go's reason otherwise.
 *
 * A quantity stored as a JSON number is an int64 on the API server (it refuses fractions and
 * anything past the int64 range), and Go reads its exact digits. A `number` past 2^53 has lost
 * them in `JSON.parse`, so it is refused with `ERR_INVALID_QUANTITY` rather than printed as a
 * different quantity; pass the digits as a `bigint` to get Go's text.
 *
 * @example
 * ```ts
 * quantityString("1024Mi"); // => "1Gi"
 * quantityString(undefined); // => ""
 * quantityString("1K"); // throws: quantity "1K" is invalid: unable to parse quantity's suffix
 * ```
 */
export function quantityString(q: string | number | bigint | null | undefined): string {
  if (q === null || q === undefined) return "";
  switch (typeof q) {
    case "string":
      return parseOrThrow(trimLikeUnmarshalJSON(q), q).text;
    case "bigint":
      return parseOrThrow(q.toString(), q).text;
    case "number":
      // JavaScript's number text equals the JSON text Go's encoder writes for the same float64.
      if (!Number.isFinite(q)) throw invalid(String(q), "not a finite number");
      if (Math.abs(q) > Number.MAX_SAFE_INTEGER) throw invalid(String(q), IMPRECISE);
      return parseOrThrow(String(q), q).text;
    default:
      throw invalid(String(q), "not a string or a number");
  }
}

const IMPRECISE = "a number beyond 2^53 has lost its digits (the API server keeps an int64 exactly): pass a bigint or a string";

/** Parses `text`; on error the message shows `input` (quoted when a string), built only then. */
function parseOrThrow(text: string, input: string | number | bigint): ParsedQuantity {
  const result = parseGoQuantity(text);
  if ("error" in result) throw invalid(typeof input === "string" ? JSON.stringify(input) : input.toString(), result.error);
  return result;
}

function invalid(shown: string, reason: string): CocoonError {
  return new CocoonError("ERR_INVALID_QUANTITY", `quantity ${shown} is invalid: ${reason}`);
}

import { formatInt, int64ToNumberOrBigInt, parseInt64, shortDecimal, toGoInteger } from "../internal/go/index.js";
import { type Annotated, type AnnotationDelta, annotationOf, applyAnnotations } from "./annotations.js";
import { Annotation } from "./keys.js";

/**
 * A Go `int64`: a `number` when it fits in a safe integer, a `bigint` beyond ±(2^53 − 1),
 * so a large generation never silently becomes a different number.
 */
export type Int64 = number | bigint;

/** Go's `readInt64Annotation`: `strconv.ParseInt(v, 10, 64)`, and 0 for a missing or invalid value. */
export function readInt64Annotation(obj: Annotated, key: string): Int64 {
  return int64OrZero(annotationOf(obj, key));
}

/** `raw` parsed like Go `strconv.ParseInt(raw, 10, 64)`, 0 when invalid; no bigint for up to 15 digits. */
export function int64OrZero(raw: string): Int64 {
  if (raw === "") return 0;
  const short = shortDecimal(raw);
  if (short !== undefined) return short;
  const parsed = parseInt64(raw);
  return parsed === undefined ? 0 : int64ToNumberOrBigInt(parsed);
}

/**
 * Reads the owning CocoonSet's generation stamped on the pod; 0 when missing or not a Go `int64`.
 * Never throws, and takes linear time: like Go's `ParseInt` it stops at the first digit past the range.
 *
 * @example
 * ```ts
 * readCocoonSetGeneration({ metadata: { annotations: { [Annotation.CocoonSetGeneration]: "+7" } } }); // => 7
 * ```
 */
export function readCocoonSetGeneration(obj: Annotated): Int64 {
  return readInt64Annotation(obj, Annotation.CocoonSetGeneration);
}

/**
 * Returns the delta that stamps the owning CocoonSet's generation on a pod, in decimal.
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `generation` is not an integer in Go's `int64` range
 * (or is a `number` past the safe-integer range, where it is already imprecise).
 */
export function cocoonSetGenerationAnnotations(generation: Int64): AnnotationDelta {
  return { [Annotation.CocoonSetGeneration]: formatInt(toGoInteger(generation, "cocoonset generation", 64)) };
}

/**
 * Stamps the owning CocoonSet's generation on the pod, in place.
 *
 * vk-cocoon echoes it back as the lifecycle observed generation.
 *
 * @example
 * ```ts
 * stampCocoonSetGeneration(pod, set.metadata.generation ?? 0); // the API server always sets it on a stored set
 * readCocoonSetGeneration(pod); // => 7
 * ```
 */
export function stampCocoonSetGeneration(obj: Annotated, generation: Int64): void {
  applyAnnotations(obj, cocoonSetGenerationAnnotations(generation));
}

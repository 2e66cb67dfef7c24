import { CocoonError } from "../../errors.js";
import type { AnnotationDelta } from "../annotations.js";

/**
 * Validates a delta without touching anything and returns its entries (a fresh array the caller
 * may reorder); throws on the first bad entry.
 *
 * @internal
 */
export function checkedEntries(delta: AnnotationDelta | null | undefined, allowEmpty: boolean): [string, string | null][] {
  if (delta === null || typeof delta !== "object" || Array.isArray(delta)) {
    throw new CocoonError("ERR_INVALID_ANNOTATION_DELTA", `annotation delta must be an object, got ${describe(delta)}`);
  }
  const entries = Object.entries(delta);
  if (entries.length === 0 && !allowEmpty) {
    throw new CocoonError(
      "ERR_INVALID_ANNOTATION_DELTA",
      "annotation delta is empty: refusing to build a merge patch that would change nothing",
    );
  }
  for (const [key, value] of entries) {
    if (key === "") throw new CocoonError("ERR_INVALID_ANNOTATION_DELTA", "annotation delta has an empty key");
    if (value !== null && typeof value !== "string") {
      throw new CocoonError("ERR_INVALID_ANNOTATION_DELTA", `annotation ${key} must be a string or null, got ${describe(value)}`);
    }
  }
  return entries;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

import { isCocoonError } from "../../errors.js";

/** Runs `fn` and returns the message of its `ERR_INVALID_REFERENCE` error, or `null` when it succeeds; rethrows anything else. */
export function referenceErrorOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!isCocoonError(err, "ERR_INVALID_REFERENCE")) throw err;
    return err.message;
  }
}

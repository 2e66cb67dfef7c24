import { CocoonError, isCocoonError } from "../errors.js";
import { messageOf } from "../internal/message-of.js";

/** An `ERR_SNAPSHOT_FORMAT` failure: the artifact or the export is malformed. */
export function formatError(message: string): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_FORMAT", message);
}

/** Whether a failure (or one of its causes) is a blob whose bytes differ from its digest or size. */
function corruptBlob(err: unknown): boolean {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (isCocoonError(e, "ERR_REGISTRY_DIGEST_MISMATCH") || isCocoonError(e, "ERR_REGISTRY_SIZE_MISMATCH")) return true;
  }
  return false;
}

/** Wraps a registry failure as `ERR_SNAPSHOT_TRANSFER` with Go's prefix; an abort reason passes through. */
export function transferError(prefix: string, err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (isCocoonError(err) && err.code.startsWith("ERR_SNAPSHOT")) return err;
  const corrupt = corruptBlob(err);
  return new CocoonError(corrupt ? "ERR_SNAPSHOT_INTEGRITY" : "ERR_SNAPSHOT_TRANSFER", `${prefix}: ${messageOf(err)}`, {
    cause: err,
  });
}

import { createHash } from "node:crypto";
import { CocoonError, isCocoonError } from "../errors.js";
import type { Descriptor } from "../oci/manifest-types.js";
import type { Downloader } from "../oci/registry.js";

/** Turns an unknown failure into its message. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Wraps a registry failure as `ERR_SNAPSHOT_TRANSFER` with Go's prefix; an abort reason passes through. */
export function transferError(prefix: string, err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (isCocoonError(err) && err.code.startsWith("ERR_SNAPSHOT")) return err;
  const corrupt = isCocoonError(err, "ERR_REGISTRY_DIGEST_MISMATCH") || isCocoonError(err, "ERR_REGISTRY_SIZE_MISMATCH");
  return new CocoonError(corrupt ? "ERR_SNAPSHOT_INTEGRITY" : "ERR_SNAPSHOT_TRANSFER", `${prefix}: ${messageOf(err)}`, {
    cause: err,
  });
}

function integrity(message: string): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_INTEGRITY", message);
}

/**
 * Streams one blob, checking its length and its sha256 against the descriptor: never yields a
 * byte past `desc.size`, and throws (Go's texts) when the blob is shorter, longer or different.
 */
export async function* verifiedBlob(
  dl: Downloader,
  name: string,
  desc: Descriptor,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  signal?.throwIfAborted();
  let body: AsyncIterable<Uint8Array>;
  try {
    body = await dl.getBlob(name, desc.digest, signal ? { signal } : {});
  } catch (err) {
    throw transferError(`get blob ${desc.digest}`, err, signal);
  }
  const hash = createHash("sha256");
  let seen = 0;
  try {
    for await (const chunk of body) {
      const room = desc.size - seen;
      seen += chunk.length;
      if (chunk.length > room) {
        if (room > 0) {
          hash.update(chunk.subarray(0, room));
          yield chunk.subarray(0, room);
        }
        throw integrity(`blob ${desc.digest} longer than manifest size ${desc.size}`);
      }
      hash.update(chunk);
      yield chunk;
    }
  } catch (err) {
    throw transferError(`read blob ${desc.digest}`, err, signal);
  } finally {
    (body as { destroy?: () => void }).destroy?.();
  }
  if (seen < desc.size) {
    throw integrity(`blob ${desc.digest} shorter than manifest size ${desc.size} (missing ${desc.size - seen})`);
  }
  const got = `sha256:${hash.digest("hex")}`;
  if (got !== desc.digest) throw integrity(`blob ${desc.digest} digest mismatch: got ${got}`);
}

/** Reads a whole verified blob into memory (chunks and the config). */
export async function readVerifiedBlob(
  dl: Downloader,
  name: string,
  desc: Descriptor,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const out = new Uint8Array(desc.size);
  let at = 0;
  for await (const chunk of verifiedBlob(dl, name, desc, signal)) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

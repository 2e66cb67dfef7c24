import { createHash } from "node:crypto";
import type { Descriptor } from "../../oci/manifest-types.js";
import { OCIAnnotation } from "../../oci/media-types.js";
import type { Uploader } from "../../oci/registry.js";
import { transferError } from "../errors.js";
import { catching } from "../io/catching.js";

/**
 * Files up to this size are hashed in memory first, so one the registry holds is not sent again
 * (Go's HEAD, then PUT); larger ones stream to an uploader that hashes on the way, unchecked.
 */
export const STREAM_ABOVE = 16 << 20;

/** `sha256:<hex>` of a list of byte runs. */
export function digestOf(parts: readonly Uint8Array[]): string {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return `sha256:${hash.digest("hex")}`;
}

/**
 * `sha256:<hex>` of one buffer, hashed by WebCrypto on libuv's thread pool: the main thread stays
 * free to read and send while a compressed chunk is hashed.
 */
export async function digestOffThread(data: Uint8Array): Promise<string> {
  const sum = await crypto.subtle.digest("SHA-256", data);
  return `sha256:${Buffer.from(sum).toString("hex")}`;
}

/** Go's `putBlobIfMissing`: HasBlob, then PutBlob only when the registry lacks it; `digest` must be the caller's hash of `parts`. */
export async function putBlobIfMissing(
  up: Uploader,
  name: string,
  digest: string,
  parts: readonly Uint8Array[],
  signal?: AbortSignal,
): Promise<void> {
  const options = signal ? { signal } : {};
  let exists: boolean;
  try {
    exists = await up.hasBlob(name, digest, options);
  } catch (err) {
    throw transferError(`check blob ${digest}`, err, signal);
  }
  if (exists) return;
  const size = parts.reduce((n, p) => n + p.length, 0);
  try {
    await up.putBlob(
      name,
      digest,
      // eslint-disable-next-line @typescript-eslint/require-await -- an array as the AsyncIterable a body must be
      (async function* () {
        yield* parts;
      })(),
      size,
      // `digest` was computed from `parts` by the caller: the uploader need not hash them again.
      { ...options, digestChecked: true },
    );
  } catch (err) {
    throw transferError(`put blob ${digest}`, err, signal);
  }
}

/** Uploads byte runs as one blob and returns its layer descriptor (title, plus chunk annotations when `count > 1`). */
export async function uploadLayer(
  up: Uploader,
  name: string,
  title: string,
  mediaType: string,
  parts: readonly Uint8Array[],
  chunk?: { index: number; count: number },
  signal?: AbortSignal,
): Promise<Descriptor> {
  const digest = parts.length === 1 ? await digestOffThread(parts[0] as Uint8Array) : digestOf(parts);
  await putBlobIfMissing(up, name, digest, parts, signal);
  const annotations: Record<string, string> = { [OCIAnnotation.Title]: title };
  if (chunk && chunk.count > 1) {
    annotations[OCIAnnotation.ChunkIndex] = String(chunk.index);
    annotations[OCIAnnotation.ChunkCount] = String(chunk.count);
  }
  return { mediaType, digest, size: parts.reduce((n, p) => n + p.length, 0), annotations };
}

/**
 * Uploads a body of unknown digest through the uploader's streamed upload and returns its layer
 * descriptor; `size`, when known, lets the uploader stream each request from the body. A failure
 * of `body` itself is rethrown as it came (the caller words it).
 */
export async function uploadStreamed(
  putBlobStreamed: NonNullable<Uploader["putBlobStreamed"]>,
  name: string,
  title: string,
  mediaType: string,
  body: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
  size?: number,
): Promise<Descriptor> {
  let bodyFailure: { error: unknown } | undefined;
  const watched = catching(body, (error) => {
    bodyFailure = { error };
    return error;
  });
  try {
    const blob = await putBlobStreamed(name, watched, { ...(signal && { signal }), ...(size !== undefined && { size }) });
    return { mediaType, digest: blob.digest, size: blob.size, annotations: { [OCIAnnotation.Title]: title } };
  } catch (err) {
    if (bodyFailure !== undefined && !signal?.aborted) throw bodyFailure.error;
    throw transferError("put blob", err, signal);
  }
}

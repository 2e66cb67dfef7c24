import { CocoonError, isCocoonError } from "../../errors.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { verifyBlob } from "../../oci/blob-copy.js";
import { freeSlabOf } from "../../internal/body-slabs.js";
import type { Downloader } from "../../oci/registry.js";
import { transferError } from "../errors.js";

/**
 * Streams one blob through `./oci`'s `verifyBlob`: never yields a byte past `desc.size`, and
 * throws `ERR_SNAPSHOT_INTEGRITY` with Go's text when the blob is shorter, longer or different.
 */
export async function* verifiedBlob(dl: Downloader, name: string, desc: Descriptor, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  signal?.throwIfAborted();
  let body: AsyncIterable<Uint8Array>;
  let checked: { readonly body: object; readonly digest: string } | undefined;
  const onDigestChecked = (b: object, digest: string): void => void (checked = { body: b, digest });
  try {
    body = await dl.getBlob(name, desc.digest, signal ? { signal, onDigestChecked } : { onDigestChecked });
  } catch (err) {
    throw transferError(`get blob ${desc.digest}`, err, signal);
  }
  try {
    // A body this call's downloader checks against this digest (OCIRegistry's) is only length-checked: each byte is hashed once.
    const downloaderHashes = checked?.body === body && checked.digest === desc.digest;
    yield* verifyBlob(body, desc.digest, desc.size, { checkDigest: !downloaderHashes });
  } catch (err) {
    // verifyBlob's own refusal, or the same check in a downloader's body (OCIRegistry's): Go's text as it is.
    const corrupt = isCocoonError(err, "ERR_REGISTRY_SIZE_MISMATCH") || isCocoonError(err, "ERR_REGISTRY_DIGEST_MISMATCH");
    if (corrupt && !signal?.aborted) throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", err.message, { cause: err });
    throw transferError(`read blob ${desc.digest}`, err, signal);
  }
}

/** Reads a whole verified blob into memory (chunks and the config), into `into` (of `desc.size` bytes) when given. */
export async function readVerifiedBlob(
  dl: Downloader,
  name: string,
  desc: Descriptor,
  signal?: AbortSignal,
  into?: Uint8Array,
): Promise<Uint8Array> {
  const out = into ?? Buffer.allocUnsafeSlow(desc.size); // filled to the last byte, or the read fails
  let at = 0;
  for await (const chunk of verifiedBlob(dl, name, desc, signal)) {
    out.set(chunk, at);
    at += chunk.length;
    freeSlabOf(chunk);
  }
  return out;
}

/** The verified bytes of `descs`, one blob after the other. */
export async function* verifiedBlobs(
  dl: Downloader,
  name: string,
  descs: readonly Descriptor[],
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  for (const desc of descs) yield* verifiedBlob(dl, name, desc, signal);
}

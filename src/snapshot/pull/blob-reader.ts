import { CocoonError, isCocoonError } from "../../errors.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { verifyBlob } from "../../oci/blob-copy.js";
import type { BlobSlabs, Downloader } from "../../oci/registry.js";
import { transferError } from "../errors.js";

/**
 * One blob's verified pieces, read once, in order (see {@link verifiedBlob}); and, as
 * {@link BlobSlabs}, the slabs of the body they come from, when the downloader handed them to this
 * read for the very stream it returned (`OCIRegistry` does): a piece this read is done with, with
 * every earlier one, may give its slab back. Otherwise nothing is freed.
 */
export interface VerifiedBlob extends AsyncIterable<Uint8Array>, BlobSlabs {}

/**
 * Streams one blob through `./oci`'s `verifyBlob`: never yields a byte past `desc.size`, and
 * throws `ERR_SNAPSHOT_INTEGRITY` with Go's text when the blob is shorter, longer or different.
 */
export function verifiedBlob(dl: Downloader, name: string, desc: Descriptor, signal?: AbortSignal, into?: Uint8Array): VerifiedBlob {
  let slabs: BlobSlabs | undefined;
  const pieces = verifiedPieces(dl, name, desc, { signal, into }, (s) => (slabs = s));
  return {
    [Symbol.asyncIterator]: () => pieces,
    endsSlab: (piece) => slabs?.endsSlab(piece) === true,
    free: (piece) => slabs?.free(piece),
  };
}

async function* verifiedPieces(
  dl: Downloader,
  name: string,
  desc: Descriptor,
  { signal, into }: { readonly signal: AbortSignal | undefined; readonly into: Uint8Array | undefined },
  lent: (slabs: BlobSlabs) => void,
): AsyncGenerator<Uint8Array> {
  signal?.throwIfAborted();
  let body: AsyncIterable<Uint8Array>;
  let checked: { readonly body: object; readonly digest: string } | undefined;
  let held: { readonly body: object; readonly slabs: BlobSlabs } | undefined;
  const onDigestChecked = (b: object, digest: string): void => void (checked = { body: b, digest });
  const onSlabs = (b: object, s: BlobSlabs): void => void (held = { body: b, slabs: s });
  try {
    body = await dl.getBlob(name, desc.digest, { onDigestChecked, onSlabs, ...(signal && { signal }), ...(into && { into }) });
  } catch (err) {
    throw transferError(`get blob ${desc.digest}`, err, signal);
  }
  // Slabs lent for another stream than the one returned are not this read's to free.
  if (held?.body === body) lent(held.slabs);
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

/**
 * Reads a whole verified blob into memory (chunks and the config), into `into` (of `desc.size`
 * bytes) when given: the downloader may receive it there itself (`GetBlobOptions.into`).
 */
export async function readVerifiedBlob(
  dl: Downloader,
  name: string,
  desc: Descriptor,
  signal?: AbortSignal,
  into?: Uint8Array,
): Promise<Uint8Array> {
  const out = into ?? Buffer.allocUnsafeSlow(desc.size); // filled to the last byte, or the read fails
  let at = 0;
  const blob = verifiedBlob(dl, name, desc, signal, out);
  for await (const chunk of blob) {
    if (chunk.buffer !== out.buffer || chunk.byteOffset !== out.byteOffset + at) out.set(chunk, at);
    at += chunk.length;
    blob.free(chunk); // copied (or in place), as every earlier piece
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

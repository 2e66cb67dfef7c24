import type { Readable } from "node:stream";

/**
 * Options every registry call takes.
 */
export interface RegistryCallOptions {
  /** Aborts the call; a body already handed out is destroyed with the abort reason. */
  readonly signal?: AbortSignal;
}

/**
 * Options of {@link Downloader.getBlob}.
 */
export interface GetBlobOptions extends RegistryCallOptions {
  /**
   * Called by a downloader that checks the stream it returns against `digest` as it is read (as
   * `OCIRegistry`'s does), with that stream and digest, before the call resolves. The record is the
   * caller's own, for this call only: a caller that gets back that very stream for the digest it
   * asked for need not hash it again. A downloader that does not call it leaves the check to the caller.
   *
   * @example
   * ```ts
   * let checked: { body: object; digest: string } | undefined;
   * const body = await registry.getBlob("vm", digest, { onDigestChecked: (b, d) => (checked = { body: b, digest: d }) });
   * const mustHash = !(checked?.body === body && checked.digest === digest);
   * ```
   */
  readonly onDigestChecked?: (body: Readable, digest: string) => void;
  /**
   * Called by a downloader whose stream hands out views of buffers it reuses (as `OCIRegistry`'s
   * does on its own HTTP client), with that stream and that body's {@link BlobSlabs}, before the
   * call resolves. They are the caller's own, for this body only: a caller that gets back that very
   * stream and reads it alone, in order, may give each buffer back once it is done with every
   * piece of it. A caller that does not free leaves the stream's bytes untouched.
   *
   * @example
   * ```ts
   * let held: { body: object; slabs: BlobSlabs } | undefined;
   * const body = await registry.getBlob("vm", digest, { onSlabs: (b, slabs) => (held = { body: b, slabs }) });
   * const slabs = held?.body === body ? held.slabs : undefined;
   * for await (const piece of body) {
   *   out.set(piece, at);
   *   at += piece.length;
   *   slabs?.free(piece); // copied: its buffer, if this piece is its last, goes back for the next body
   * }
   * ```
   */
  readonly onSlabs?: (body: Readable, slabs: BlobSlabs) => void;
  /**
   * A buffer of the blob's length that the downloader may receive the body straight into (as
   * `OCIRegistry`'s own HTTP client does when the response announces that length): the stream's
   * pieces are then views of it, each where its bytes belong, and a caller that finds a piece in
   * place need not copy it. The downloader writes into it until the stream has ended or been
   * destroyed; one that does not use it hands out pieces of its own.
   *
   * @example
   * ```ts
   * const into = Buffer.allocUnsafe(layer.size);
   * let at = 0;
   * for await (const piece of await registry.getBlob("vm", layer.digest, { into })) {
   *   const bytes = piece as Uint8Array;
   *   if (bytes.buffer !== into.buffer || bytes.byteOffset !== into.byteOffset + at) into.set(bytes, at);
   *   at += bytes.length;
   * }
   * ```
   */
  readonly into?: Uint8Array;
}

/**
 * The buffers ("slabs") one blob stream was received into, as its downloader hands them to the one
 * caller that reads it (see {@link GetBlobOptions.onSlabs}). A slab holds consecutive pieces of the
 * stream; the piece it hands out last ends it.
 */
export interface BlobSlabs {
  /** Whether `piece`, as the stream gave it, is the last piece of its slab. */
  endsSlab(piece: Uint8Array): boolean;
  /**
   * Gives back the slab `piece` ends, for the downloader's next body; call it only once every
   * earlier piece of that slab is let go of too (copied, or taken by an output). Every view of
   * the slab reads as empty from then on. Any other piece, of this stream or not, is left alone.
   */
  free(piece: Uint8Array): void;
}

/**
 * Options of {@link Uploader.putBlob}.
 */
export interface PutBlobOptions extends RegistryCallOptions {
  /**
   * The caller hashed exactly these bytes into `digest` itself, for this call: the uploader may
   * leave the digest to the registry (which checks it on the final `PUT`) and check only the
   * length. Without it (the default) `OCIRegistry` hashes the body as it sends it.
   */
  readonly digestChecked?: boolean;
}

/**
 * Options of {@link Registry.deleteManifest}.
 */
export interface DeleteManifestOptions extends RegistryCallOptions {
  /**
   * Tags of the same repository that must keep their manifest. A registry that refuses to delete
   * by tag gets the digest deleted instead, which removes every tag naming that manifest: when one
   * of these tags names it, the delete rejects (`ERR_REGISTRY_STATUS`) and deletes nothing.
   */
  readonly keepTags?: readonly string[];
}

/**
 * A manifest as the registry served it: the exact bytes and the `Content-Type` it was sent with.
 */
export interface FetchedManifest {
  /** The manifest bytes, unchanged. */
  readonly data: Uint8Array;
  /** The media type from the response's `Content-Type` header. */
  readonly contentType: string;
}

/**
 * Options of {@link Uploader.putBlobStreamed}.
 */
export interface StreamedBlobOptions extends RegistryCallOptions {
  /**
   * The body's length, when known: each `PATCH` then streams its bytes from the body as they are
   * sent instead of holding a piece, and the closing `PUT` carries none. A body of another length
   * fails with `ERR_REGISTRY_SIZE_MISMATCH`.
   */
  readonly size?: number;
}

/**
 * A blob {@link Uploader.putBlobStreamed} uploaded: what the registry now holds it under.
 */
export interface StreamedBlob {
  /** `sha256:<hex>` of the bytes sent. */
  readonly digest: string;
  /** Number of bytes sent. */
  readonly size: number;
}

/**
 * Uploads blobs and manifests: the push half of Go's `snapshot.Uploader`.
 *
 * `name` is the repository (a VM name), `digest` is `sha256:<hex>`.
 */
export interface Uploader {
  /** Reports whether the repository already holds the blob. */
  hasBlob(name: string, digest: string, options?: RegistryCallOptions): Promise<boolean>;
  /** Uploads `size` bytes from `body`; the registry refuses a body whose digest or length differs. */
  putBlob(name: string, digest: string, body: AsyncIterable<Uint8Array>, size: number, options?: PutBlobOptions): Promise<void>;
  /** Stores `data` under `tag` with the given media type. */
  putManifest(name: string, tag: string, data: Uint8Array, contentType: string, options?: RegistryCallOptions): Promise<void>;
  /**
   * Uploads a body whose digest is not known beforehand, hashing it on the way, and returns its
   * digest and size. Optional (Go's `Uploader` has no such call): without it, a v1 push holds each
   * file in memory to learn its digest before uploading it. A chunk of `body` is valid until the
   * second chunk after it is asked for (a snapshot push reads into its buffer again): copy what is
   * kept longer.
   */
  putBlobStreamed?(name: string, body: AsyncIterable<Uint8Array>, options?: StreamedBlobOptions): Promise<StreamedBlob>;
}

/**
 * Downloads manifests and digest-verified blob streams: the pull half of Go's `snapshot.Downloader`.
 */
export interface Downloader {
  /**
   * Fetches the manifest that `reference` (a tag or a digest) names.
   * Rejects with an error that `isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")` recognizes when it is absent.
   */
  getManifest(name: string, reference: string, options?: RegistryCallOptions): Promise<FetchedManifest>;
  /**
   * Streams a blob. The stream errors (it never ends cleanly) when the bytes do not match the digest,
   * and it is destroyed when the signal aborts. A downloader that checks the digest as the stream is
   * read says so to this call's `options.onDigestChecked`; one whose stream lends out buffers it
   * reuses hands them to `options.onSlabs`.
   */
  getBlob(name: string, digest: string, options?: GetBlobOptions): Promise<Readable>;
}

/**
 * A registry as the operator and the virtual kubelet use it: Go's `oci.Registry`.
 */
export interface Registry extends Uploader, Downloader {
  /** Reports whether `reference` (a tag or a digest) names a manifest; an error is never "absent". */
  hasManifest(name: string, reference: string, options?: RegistryCallOptions): Promise<boolean>;
  /** Deletes the manifest `reference` names; a missing one counts as deleted. Never removes what a tag in `options.keepTags` names. */
  deleteManifest(name: string, reference: string, options?: DeleteManifestOptions): Promise<void>;
}

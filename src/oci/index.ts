/**
 * The registry side of the contract: the `Registry` interface, typed registry errors, references,
 * digests and digest-verified blob copies (and, as it lands, the OCI distribution client).
 *
 * Twin of Go cocoon-common's `oci` and `ociutil` packages. Loads nothing beyond Node.
 *
 * @module
 */
export { copyBlobExact, copyBlobSized, verifyBlob } from "./blob-copy.js";
export type { VerifyBlobOptions } from "./blob-copy.js";
export { sha256Digest, sha256Hex } from "./digest.js";
export { isRegistryError, RegistryError } from "./errors.js";
export type { RegistryErrorCode, RegistryErrorDetails } from "./errors.js";
export { parseDigestReference, parseReference, parseRepository, parseTag } from "./reference.js";
export type { Reference, RepositoryName } from "./reference.js";
export type { Downloader, FetchedManifest, Registry, RegistryCallOptions, Uploader } from "./registry.js";
export { isRelativeRef, parseRef } from "./relative-ref.js";
export type { RelativeRef } from "./relative-ref.js";

/**
 * The registry side of the contract: the `Registry` interface and its OCI distribution client
 * (`OCIRegistry`, on an HTTP/1.1 client of its own, or Node's `fetch` once the process configures
 * it), credentials, typed registry errors, references, digests and digest-verified blob copies;
 * manifest and media types (Go's `manifest` package).
 *
 * Twin of Go cocoon-common's `oci` and `ociutil` packages. Loads nothing beyond Node.
 *
 * @module
 */
export { copyBlobExact, copyBlobSized, verifyBlob } from "./blob-copy.js";
export type { VerifyBlobOptions } from "./blob-copy.js";
export { staticCredentials } from "./credentials.js";
export { dockerConfigCredentials } from "./docker-config.js";
export type { DockerConfigOptions } from "./docker-config.js";
export type { CredentialSource, RegistryCredentials } from "./credentials.js";
export { sha256Digest, sha256Hex } from "./digest.js";
export { isRegistryError, RegistryError } from "./errors.js";
export type { RegistryErrorCode, RegistryErrorDetails } from "./errors.js";
export { deleteSetSnapshots, hasHibernateSnapshot } from "./hibernate-snapshot.js";
export type { SetSnapshotCleanup, SetVM } from "./hibernate-snapshot.js";
export { classifyManifest, classifyParsedManifest, descriptorTitle, ManifestKind, parseManifest } from "./manifest-types.js";
export type { Descriptor, IndexManifest, OCIManifest } from "./manifest-types.js";
export { marshalManifest } from "./manifest-json.js";
export {
  ArtifactType,
  isDiskMediaType,
  isSnapshotLayerMediaType,
  isZstdMediaType,
  MediaType,
  mediaTypeForCocoonFile,
  OCIAnnotation,
  stripZstd,
  zstdMediaType,
} from "./media-types.js";
export { OCIRegistry } from "./oci-registry.js";
export type { OCIRegistryOptions } from "./oci-registry-options.js";
export { parseDigestReference, parseReference, parseRepository, parseTag } from "./reference.js";
export type { Reference, RepositoryName } from "./reference.js";
export type {
  BlobSlabs,
  DeleteManifestOptions,
  Downloader,
  FetchedManifest,
  GetBlobOptions,
  PutBlobOptions,
  Registry,
  RegistryCallOptions,
  StreamedBlob,
  StreamedBlobOptions,
  Uploader,
} from "./registry.js";
export { isRelativeRef, parseRef } from "./relative-ref.js";
export { decodeSnapshotConfig, marshalSnapshotConfig } from "./snapshot-config.js";
export type { SnapshotConfig, SnapshotFile } from "./snapshot-config.js";
export type { RelativeRef } from "./relative-ref.js";

/**
 * The registry side of the contract: the `Registry` interface, typed registry errors, and
 * (as they land) the OCI distribution client, references and digest-verified blob copies.
 *
 * Twin of Go cocoon-common's `oci` and `ociutil` packages. Loads nothing beyond Node.
 *
 * @module
 */
export { isRegistryError, RegistryError } from "./errors.js";
export type { RegistryErrorCode, RegistryErrorDetails } from "./errors.js";
export type { Downloader, FetchedManifest, Registry, RegistryCallOptions, Uploader } from "./registry.js";

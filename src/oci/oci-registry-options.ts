import type { CredentialSource } from "./credentials.js";

/** Options of {@link OCIRegistry}. */
export interface OCIRegistryOptions {
  /**
   * Where credentials come from when a registry asks for them; default anonymous. See
   * {@link dockerConfigCredentials} and {@link staticCredentials}.
   */
  readonly credentials?: CredentialSource;
  /**
   * Hosts (`host` or `host:port`) that may be spoken to over plain HTTP. Loopback hosts
   * (`localhost`, 127.0.0.0/8, `::1`) always are; every other host gets HTTPS only.
   */
  readonly insecure?: readonly string[];
  /** Deadline for each request's response headers, and the longest stall while reading a body; default 30 s. */
  readonly timeoutMs?: number;
  /** Extra attempts for safe requests (GET/HEAD, and 429/503 with `Retry-After`); default 2. */
  readonly retries?: number;
  /** The `fetch` to send requests with; default Node's own (undici, with keep-alive). */
  readonly fetch?: typeof fetch;
}

/** The manifest media types a `HEAD`/`GET` accepts: OCI and Docker, images and indexes. */
export const MANIFEST_ACCEPT = [
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
].join(",");

/** The largest manifest read (distribution's own limit). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

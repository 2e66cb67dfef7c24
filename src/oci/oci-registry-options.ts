import type { CredentialSource } from "./credentials.js";
import { DOCKER_MANIFEST, MediaType } from "./media-types.js";

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
  /**
   * Deadline for each request's response headers, and the longest stall while reading a body;
   * default 30 s. It alone bounds the blob bytes a call streams (a `getBlob` body, a `putBlob`
   * upload), which {@link OCIRegistryOptions.deadlineMs} does not cover.
   */
  readonly timeoutMs?: number;
  /**
   * Overall deadline of each call, default 120 s: from its start to its answer, across credential
   * lookup, token requests, redirects, retries and their waits, error bodies and manifest bodies.
   * Passing it fails the call with `ERR_REGISTRY_TIMEOUT`, even when a credential source ignores
   * the signal it is given. Blob bytes are outside it: a `getBlob` call ends when its stream is
   * handed out, and each request of an upload gets its own deadline, its body bounded by `timeoutMs`.
   */
  readonly deadlineMs?: number;
  /** Extra attempts for safe requests (GET/HEAD, and 429/503 with `Retry-After`); default 2. */
  readonly retries?: number;
  /**
   * The `fetch` to send every request with. By default every request (manifests, blobs, tokens,
   * uploads) goes over this package's own HTTP/1.1 client, a connection per request, which trusts
   * Node's CAs (`NODE_EXTRA_CA_CERTS` included); a body it cannot size (no `Content-Length`) goes
   * through Node's own `fetch`; once the process configures Node's `fetch` (`NODE_USE_ENV_PROXY`, or
   * a global dispatcher such as undici's `ProxyAgent`), everything goes through Node's `fetch`. Given here,
   * this `fetch` sends everything; it must be done with a chunk of a streamed request body once it
   * asks for the second chunk after it, as Node's is: a snapshot push reads its next bytes into that
   * chunk's buffer (held longer, the bytes sent differ from those hashed, and the registry refuses
   * the blob).
   */
  readonly fetch?: typeof fetch;
}

/** The manifest media types a `HEAD`/`GET` accepts: OCI and Docker, images and indexes. */
export const MANIFEST_MEDIA_TYPES: readonly string[] = [MediaType.OCIManifest, MediaType.OCIIndex, DOCKER_MANIFEST, MediaType.DockerIndex];

/** {@link MANIFEST_MEDIA_TYPES} as an `Accept` header. */
export const MANIFEST_ACCEPT = MANIFEST_MEDIA_TYPES.join(",");

/** The largest manifest read (distribution's own limit). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

import type { Readable } from "node:stream";
import { verifyBlob } from "./blob-copy.js";
import { sha256Digest } from "./digest.js";
import { RegistryError } from "./errors.js";
import { Authorizer } from "./internal/authorizer.js";
import { bodyChunks, discardBody, readBody } from "./internal/body.js";
import { uploadStreamedBlob } from "./internal/blob-session.js";
import { uploadSizedBlob } from "./internal/sized-upload.js";
import { uploadBlob } from "./internal/blob-upload.js";
import { startDeadline, type CallDeadline } from "./internal/deadline.js";
import { deleteManifestRef } from "./internal/delete-manifest.js";
import { directReadable } from "./internal/direct-readable.js";
import { headedManifestDigest } from "./internal/manifest-head.js";
import { blobRef, manifestRef } from "./internal/refs.js";
import { schemeFor } from "./internal/scheme.js";
import { defaultFetch } from "./internal/socket-http/default-fetch.js";
import { socketBody } from "./internal/socket-http/socket-response.js";
import { Transport, type RegistryRequest } from "./internal/transport.js";
import { MANIFEST_ACCEPT, MAX_MANIFEST_BYTES, type OCIRegistryOptions } from "./oci-registry-options.js";
import type { RepositoryName } from "./reference.js";
import type {
  DeleteManifestOptions,
  FetchedManifest,
  GetBlobOptions,
  PutBlobOptions,
  Registry,
  RegistryCallOptions,
  StreamedBlob,
  StreamedBlobOptions,
} from "./registry.js";
import type { RegistryResponse } from "./internal/registry-response.js";

type Action = "pull" | "pull,push" | "delete";

/**
 * A {@link Registry} on the OCI distribution API (Go's `oci.OCIRegistry`): every request over an
 * HTTP/1.1 client of the package's own, unless the process configures Node's `fetch` (see
 * {@link OCIRegistryOptions.fetch}).
 *
 * `base` is the registry host plus an optional repository prefix (`ghcr.io/acme/snapshots`,
 * `127.0.0.1:5000`); `name` (a VM name) is appended to it, and a reference holding a `:` is a digest.
 * Every call takes an `AbortSignal`, is bounded by `deadlineMs` overall and `timeoutMs` per wait,
 * and fails with a typed {@link RegistryError}: absent (`ERR_REGISTRY_NOT_FOUND`) is only a 404 from
 * the registry's own manifest or blob endpoint, never a token endpoint's or a redirect target's
 * answer, and is never confused with unauthorized, forbidden, unreachable or timed out.
 * `Authorization` goes only to the registry's own host, and nothing goes over plain HTTP to a host
 * that is neither loopback nor in `insecure`, redirects and upload locations included. Every body
 * read whole is capped. Blobs stream in both directions and are digest-verified.
 *
 * @example
 * ```ts
 * const registry = new OCIRegistry(process.env.OCI_REGISTRY ?? "", { credentials: dockerConfigCredentials() });
 * if (await registry.hasManifest("vk-demo-sandbox-0", SnapshotTag.Hibernate)) restore();
 * ```
 */
export class OCIRegistry implements Registry {
  readonly #base: string;
  readonly #insecure: readonly string[];
  readonly #timeoutMs: number;
  readonly #deadlineMs: number;
  readonly #authorizer: Authorizer;
  readonly #transport: Transport;

  /**
   * @param base - Registry host and optional repository prefix, as Go's `NewOCIRegistry` takes it.
   * @param options - Credentials, plain-HTTP hosts, timeout and retries.
   */
  constructor(base: string, options: OCIRegistryOptions = {}) {
    this.#base = base;
    this.#insecure = options.insecure ?? [];
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#deadlineMs = options.deadlineMs ?? 120_000;
    const fetchFn = options.fetch ?? defaultFetch();
    this.#authorizer = new Authorizer({
      credentials: options.credentials,
      insecure: this.#insecure,
      fetch: fetchFn,
      timeoutMs: this.#timeoutMs,
    });
    this.#transport = new Transport({
      authorizer: this.#authorizer,
      fetch: fetchFn,
      insecure: this.#insecure,
      timeoutMs: this.#timeoutMs,
      deadlineMs: this.#deadlineMs,
      retries: options.retries ?? 2,
    });
  }

  /** Requests sent so far: `registry` to the registry (and the hosts it redirects to), `token` to its token endpoint; each redirect hop counts. */
  get requestCounts(): { readonly registry: number; readonly token: number } {
    return { registry: this.#transport.requests, token: this.#authorizer.tokenRequests };
  }

  /**
   * Reports whether `reference` (a tag or a digest) names a manifest: one `HEAD`. Fails closed:
   * `true` only for a 200 with a valid `Docker-Content-Digest` (the digest asked for, for a digest
   * reference) and, when a `Content-Type` is sent, a manifest media type; `false` only for a 404
   * from the registry's own manifest endpoint; anything else rejects with a typed error.
   */
  async hasManifest(name: string, reference: string, options: RegistryCallOptions = {}): Promise<boolean> {
    const ref = manifestRef(this.#base, name, reference);
    const what = `head manifest ${name}:${reference}`;
    const url = this.#url(ref, "manifests", ref.identifier);
    return this.#bounded(what, options, async (deadline) => {
      const response = await this.#send(
        ref,
        "pull",
        options,
        { method: "HEAD", url, what, ok: [200, 404], headers: { accept: MANIFEST_ACCEPT } },
        deadline,
      );
      await discardBody(response);
      if (response.status === 404) return false;
      headedManifestDigest(response, what, `HEAD ${url}`, ref.kind === "digest" ? ref.identifier : undefined);
      return true;
    });
  }

  /** Fetches the manifest `reference` names, byte for byte; a digest reference is checked against the bytes. */
  async getManifest(name: string, reference: string, options: RegistryCallOptions = {}): Promise<FetchedManifest> {
    const ref = manifestRef(this.#base, name, reference);
    const what = `get manifest ${name}:${reference}`;
    const url = this.#url(ref, "manifests", ref.identifier);
    return this.#bounded(what, options, async (deadline) => {
      const req = { method: "GET", url, what, ok: [200], headers: { accept: MANIFEST_ACCEPT } } as const;
      const response = await this.#send(ref, "pull", options, req, deadline);
      const data = await readBody(
        response,
        { what, request: `GET ${url}`, idleTimeoutMs: this.#timeoutMs, signal: deadline.signal },
        MAX_MANIFEST_BYTES,
      );
      if (ref.kind === "digest" && sha256Digest(data) !== ref.identifier) {
        throw new RegistryError("ERR_REGISTRY_DIGEST_MISMATCH", `${what}: manifest digest mismatch: got ${sha256Digest(data)}`);
      }
      return { data, contentType: (response.headers.get("content-type") ?? "").trim() };
    });
  }

  /** Stores `data` under `tag` with the given media type. */
  async putManifest(name: string, tag: string, data: Uint8Array, contentType: string, options: RegistryCallOptions = {}): Promise<void> {
    const ref = manifestRef(this.#base, name, tag);
    const url = this.#url(ref, "manifests", ref.identifier);
    const req = {
      method: "PUT",
      url,
      what: `put manifest ${name}:${tag}`,
      ok: [201],
      headers: { "content-type": contentType },
      body: data,
    } as const;
    await this.#bounded(req.what, options, (deadline) => this.#send(ref, "pull,push", options, req, deadline).then((r) => discardBody(r)));
  }

  /**
   * Deletes the manifest `reference` names; absent counts as deleted. A tag is deleted as a tag
   * (distribution untags it); a registry that refuses tag deletes gets the digest deleted instead,
   * unless a tag in `options.keepTags` names the same manifest: then it rejects with
   * `ERR_REGISTRY_STATUS` and deletes nothing.
   */
  async deleteManifest(name: string, reference: string, options: DeleteManifestOptions = {}): Promise<void> {
    const ref = manifestRef(this.#base, name, reference);
    const url = (identifier: string): string => this.#url(ref, "manifests", identifier);
    const what = `delete manifest ${reference}`;
    await this.#bounded(what, options, (deadline) =>
      deleteManifestRef(ref, what, url, (action, req) => this.#send(ref, action, options, req, deadline), {
        keepTags: options.keepTags ?? [],
        timeoutMs: this.#timeoutMs,
        signal: deadline.signal,
      }),
    );
  }

  /** Reports whether the repository holds the blob: one `HEAD`. */
  async hasBlob(name: string, digest: string, options: RegistryCallOptions = {}): Promise<boolean> {
    const ref = blobRef(this.#base, name, digest);
    const url = this.#url(ref, "blobs", digest);
    const what = `head blob ${name}@${digest}`;
    return this.#bounded(what, options, async (deadline) => {
      const response = await this.#send(ref, "pull", options, { method: "HEAD", url, what, ok: [200, 404] }, deadline);
      await discardBody(response);
      return response.status === 200;
    });
  }

  /**
   * Streams a blob; the stream errors when the bytes do not match the digest or the announced
   * length, and is reported to `options.onDigestChecked` as checked against `digest`. A body this
   * registry's own HTTP client received comes with its slabs, for `options.onSlabs`: they are this
   * body's, from a pool this registry keeps for itself; one of `options.into`'s length is received
   * straight into it.
   */
  async getBlob(name: string, digest: string, options: GetBlobOptions = {}): Promise<Readable> {
    const ref = blobRef(this.#base, name, digest);
    const url = this.#url(ref, "blobs", digest);
    const what = `get blob ${name}@${digest}`;
    // The deadline covers the call up to the stream; the bytes are bounded by the stall timeout.
    const response = await this.#bounded(what, options, (deadline) =>
      this.#send(ref, "pull", options, { method: "GET", url, what, ok: [200] }, deadline),
    );
    const length = Number(response.headers.get("content-length") ?? NaN);
    if (options.into?.length === length) socketBody(response)?.receiveInto(options.into);
    const body = bodyChunks(response, { what, request: `GET ${url}`, idleTimeoutMs: this.#timeoutMs, signal: options.signal });
    const verified = verifyBlob(body, digest, Number.isSafeInteger(length) && length >= 0 ? length : undefined);
    const stream = directReadable(verified);
    // A stream destroyed before it is read never starts its reader, which would close the
    // connection: it closes with the stream, and writes into `options.into` no more.
    stream.once("close", () => {
      const socket = socketBody(response);
      if (socket !== undefined) void socket.cancel();
      else if (response.body?.locked === false) response.body.cancel().catch(() => undefined);
    });
    const slabs = options.onSlabs === undefined ? undefined : socketBody(response)?.slabs;
    try {
      options.onDigestChecked?.(stream, digest);
      if (slabs !== undefined) options.onSlabs?.(stream, slabs);
    } catch (err) {
      stream.destroy();
      throw err;
    }
    return stream;
  }

  /**
   * Uploads `size` bytes from `body` in one monolithic upload (`POST`, then a streamed `PUT`),
   * checking its length and, unless `options.digestChecked`, its digest.
   */
  async putBlob(name: string, digest: string, body: AsyncIterable<Uint8Array>, size: number, options: PutBlobOptions = {}): Promise<void> {
    const upload = { base: this.#base, name, digest, body, size, signal: options.signal, digestChecked: options.digestChecked === true };
    await uploadBlob(upload, this.#pushSend(options), this.#uploadURL);
  }

  /**
   * Uploads a body of unknown digest in one chunked upload session (`POST`, a `PATCH` per 16 MiB,
   * `PUT ?digest=` with the last piece), hashing it on the way; at most two pieces are held. Given
   * the body's `size`, each `PATCH` streams from the body as it is sent and holds no piece (the
   * last one takes the remainder, and the `PUT` is empty).
   */
  async putBlobStreamed(name: string, body: AsyncIterable<Uint8Array>, options: StreamedBlobOptions = {}): Promise<StreamedBlob> {
    const send = this.#pushSend(options);
    if (options.size !== undefined) return uploadSizedBlob(this.#base, name, body, options.size, send, this.#uploadURL);
    return uploadStreamedBlob(this.#base, name, body, send, this.#uploadURL);
  }

  readonly #uploadURL = (ref: RepositoryName, path: string): string => this.#url(ref, "blobs", path);

  #pushSend(options: RegistryCallOptions) {
    return (ref: RepositoryName, req: Omit<RegistryRequest, "registry" | "scope" | "signal">): Promise<RegistryResponse> =>
      this.#send(ref, "pull,push", options, req);
  }

  #url(ref: RepositoryName, kind: "manifests" | "blobs", identifier: string): string {
    return `${schemeFor(ref.registry, this.#insecure)}://${ref.registry}/v2/${ref.repository}/${kind}/${identifier}`;
  }

  /** Runs one call under its overall deadline (see {@link OCIRegistryOptions.deadlineMs}). */
  async #bounded<T>(what: string, options: RegistryCallOptions, call: (deadline: CallDeadline) => Promise<T>): Promise<T> {
    const deadline = startDeadline(what, this.#deadlineMs, options.signal);
    try {
      return await call(deadline);
    } finally {
      deadline.end();
    }
  }

  /** Sends one request of a call: under the call's deadline, or (an upload's requests) each under its own. */
  #send(
    ref: RepositoryName,
    action: Action,
    options: RegistryCallOptions,
    req: Omit<RegistryRequest, "registry" | "scope" | "signal" | "deadline">,
    deadline?: CallDeadline,
  ): Promise<RegistryResponse> {
    return this.#transport.send({
      ...req,
      registry: ref.registry,
      scope: `repository:${ref.repository}:${action}`,
      signal: options.signal,
      deadline: deadline?.signal,
    });
  }
}

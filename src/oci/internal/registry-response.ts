/**
 * The part of a `fetch` `Response` the registry client reads. A real `Response` is one (a user's
 * `fetch` option works unchanged); the package's own socket client answers with a class of its own,
 * so a push or a pull never builds a `Response` or `Headers` (either loads Node's undici bundle).
 */
export interface RegistryResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/** A `fetch` as the registry client calls it: a URL string, and answers with a {@link RegistryResponse}. */
export type RegistryFetch = (input: string, init: RequestInit) => Promise<RegistryResponse>;

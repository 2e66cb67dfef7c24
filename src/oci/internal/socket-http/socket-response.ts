import type { RegistryResponse } from "../registry-response.js";
import type { BodyQueue } from "./body-queue.js";
import { type HeaderFields, responseFields } from "./header-fields.js";
import type { ResponseHead } from "./response-head.js";

/** What `fetch` takes as its first argument. */
export type FetchInput = Parameters<typeof fetch>[0];

/** A {@link RegistryResponse} with the readers of a whole body: what a `Response` and a {@link SocketResponse} both have. */
export interface FetchedResponse extends RegistryResponse {
  readonly ok: boolean;
  readonly statusText: string;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** The answer of {@link socketFetch}: no `Response` or `Headers` (either loads Node's undici). */
export class SocketResponse implements FetchedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderFields;
  readonly url: string;
  /** The body's bytes as they come; `undefined` for a response without a body. */
  readonly #queue: BodyQueue | undefined;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(head: ResponseHead, url: string, queue: BodyQueue | undefined) {
    this.status = head.status;
    this.statusText = head.reason;
    this.headers = responseFields(head.fields);
    this.url = url;
    this.#queue = queue;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** The body as a web stream, made on first use. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#queue === undefined) return null;
    return (this.#stream ??= this.#queue.stream());
  }

  /** The body read without a web stream: the same bytes {@link body} would give (read one or the other). */
  get direct(): Pick<BodyQueue, "read" | "cancel" | "slabs" | "receiveInto"> | undefined {
    return this.#queue;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const reader = this.#stream === undefined ? this.#queue : this.#stream.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const next = await reader?.read();
      if (next === undefined || next.done) break;
      parts.push(next.value);
    }
    const bytes = Buffer.concat(parts);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  }

  async text(): Promise<string> {
    return Buffer.from(await this.arrayBuffer()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * The body of a response {@link socketFetch} made, read without a web stream in between: the same
 * bytes `response.body` would give (read one or the other); `undefined` for any other response, or one without a body.
 */
export function socketBody(response: RegistryResponse): Pick<BodyQueue, "read" | "cancel" | "slabs" | "receiveInto"> | undefined {
  return response instanceof SocketResponse ? response.direct : undefined;
}

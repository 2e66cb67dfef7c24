import { type LookupFunction, connect as netConnect, isIP, type Socket } from "node:net";
import { BodySlabs, type SlabPool } from "../../../internal/body-slabs.js";
import { BodyQueue } from "./body-queue.js";
import { ChunkedDecoder } from "./chunked-decoder.js";
import { HeaderFields } from "./header-fields.js";
import { type RequestBody, requestBody, writeStreamBody } from "./request-body.js";
import { type FetchedResponse, type FetchInput, SocketResponse } from "./socket-response.js";
import { bodyFraming, type BodyFraming, MAX_HEAD_BYTES, parseResponseHead, ProtocolError, type ResponseHead } from "./response-head.js";

/** Bytes of the buffer each connection reads into, reused for every read. */
const READ_BUFFER = 256 * 1024;
/** Read buffers a client keeps for its next connections; past this many a closed connection's is left to the collector. */
const KEPT_READ_BUFFERS = 8;
/** Interim (1xx) responses skipped before the final one, at most. */
const MAX_INTERIM = 8;
const CRLFCRLF = Buffer.from("\r\n\r\n");

/** Settings of {@link socketFetch}. */
export interface SocketFetchOptions {
  /** Certificate authorities to trust instead of Node's (a test's own CA). */
  readonly ca?: string | undefined;
  /** Name resolution instead of the system's. */
  readonly lookup?: LookupFunction | undefined;
  /** The methods this sends itself; default `GET` and `HEAD`. */
  readonly methods?: readonly SocketMethod[] | undefined;
  /**
   * Sends what this does not: any other method, a `Request` object, a body that is neither a
   * `Uint8Array` nor a `ReadableStream`, a stream body without a `Content-Length`.
   */
  readonly fallback: (input: FetchInput, init?: RequestInit) => Promise<FetchedResponse>;
  /** The client's own pool of body slabs: each body receives into slabs of it, and its reader may give them back. */
  readonly slabs: SlabPool;
}

/** A method {@link socketFetch} can send itself. */
export type SocketMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Buffers a client's connections are done with, for its next ones. */
interface Spares {
  readonly read: Buffer[];
  readonly head: Buffer[];
}

/**
 * A `fetch` over HTTP/1.1 on a connection of its own per request (`Connection: close`), each
 * socket read copied once, into the body's memory; a request body (a `Uint8Array`, or a stream of
 * its declared `Content-Length`) is written as it comes, waiting for the socket to drain. It
 * follows no redirect and asks for no content coding; the head is parsed strictly and capped at
 * {@link MAX_HEAD_BYTES}. It rejects as undici's does: with the abort reason when `signal`
 * aborts, else with a `TypeError` whose `cause` says what broke (a body's own error among them).
 */
export function socketFetch(options: SocketFetchOptions): (input: FetchInput, init?: RequestInit) => Promise<FetchedResponse> {
  const methods: readonly string[] = options.methods ?? ["GET", "HEAD"];
  // A connection's read buffer goes back here once it closed, its head buffer once the head is
  // parsed: a push's many requests reuse a few instead of leaving 320 KiB each to the collector.
  const spares: Spares = { read: [], head: [] };
  return (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const plain = typeof input === "string" || input instanceof URL;
    let headers: HeaderFields;
    try {
      headers = HeaderFields.of(init?.headers);
    } catch (err) {
      return Promise.reject(err);
    }
    const body = plain && methods.includes(method) ? requestBody(init, headers) : undefined;
    if (body === undefined) return options.fallback(input, init);
    const url = new URL(input);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return Promise.reject(new TypeError(`fetch failed: unsupported scheme ${url.protocol}`));
    const signal = init?.signal ?? undefined;
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (body !== null) headers.set("content-length", String(body.length));
    else if (method === "POST" || method === "PUT" || method === "PATCH") headers.set("content-length", "0");
    return new Promise<FetchedResponse>((resolve, reject) => {
      new Exchange(url, method, headers, signal, options, spares, { resolve, reject }).start(body);
    });
  };
}

/** One request and its response on a connection of its own. */
class Exchange {
  readonly #method: string;
  readonly #url: URL;
  readonly #headers: HeaderFields;
  readonly #signal: AbortSignal | undefined;
  readonly #settle: { resolve: (r: SocketResponse) => void; reject: (err: unknown) => void };
  readonly #socket: Socket;
  readonly #body: BodyQueue;
  /** The connection's buffer for the reads that are not the body's: the head, a chunked body. */
  readonly #readBuffer: Buffer;
  #settled = false;
  /** The head read so far, in a buffer of its own cap: a head dripped byte by byte costs no more than one sent at once. */
  #headBytes: Buffer | undefined;
  readonly #spares: Spares;
  #headLength = 0;
  #interim = 0;
  #framing: BodyFraming | undefined;
  #remaining = 0;
  #decoder: ChunkedDecoder | undefined;

  constructor(
    url: URL,
    method: string,
    headers: HeaderFields,
    signal: AbortSignal | undefined,
    options: SocketFetchOptions,
    spares: Spares,
    settle: { resolve: (r: SocketResponse) => void; reject: (err: unknown) => void },
  ) {
    this.#url = url;
    this.#method = method;
    this.#headers = headers;
    this.#signal = signal;
    this.#settle = settle;
    const socket = { resume: () => this.#socket.resume(), cancel: () => this.#close() };
    this.#body = new BodyQueue(READ_BUFFER, socket, new BodySlabs(options.slabs));
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const tls = url.protocol === "https:";
    this.#spares = spares;
    const buffer = spares.read.pop() ?? Buffer.allocUnsafeSlow(READ_BUFFER);
    this.#readBuffer = buffer;
    // Node asks for the buffer of each next read: once the head is parsed and the body's length
    // is known, the body's own memory, so its bytes are never copied.
    const onread = { buffer: () => this.#nextReadBuffer(), callback: (n: number, buf: Uint8Array) => this.#onRead(buf, n) };
    const common = { host, port: Number(url.port || (tls ? 443 : 80)), lookup: options.lookup, onread };
    // `node:tls` is loaded on the first TLS connection: a process that dials only plain HTTP
    // registries never pays its code and memory.
    this.#socket = tls
      ? process.getBuiltinModule("node:tls").connect({
          ...common,
          ...(isIP(host) === 0 ? { servername: host } : {}),
          ...(options.ca === undefined ? {} : { ca: options.ca }),
        })
      : netConnect(common);
    // Closed, the socket reads nothing more into its buffer.
    this.#socket.once("close", () => {
      if (spares.read.length < KEPT_READ_BUFFERS) spares.read.push(buffer);
    });
  }

  start(body: RequestBody | null): void {
    this.#socket.on("error", (err) => this.#fail(err));
    this.#socket.on("end", () => this.#onEnd());
    this.#socket.on("close", () => this.#fail(new ProtocolError("connection closed before a response")));
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    let request = `${this.#method} ${this.#url.pathname}${this.#url.search} HTTP/1.1\r\nhost: ${this.#url.host}\r\n`;
    for (const [name, value] of this.#headers) if (name !== "host" && name !== "connection") request += `${name}: ${value}\r\n`;
    this.#socket.write(`${request}connection: close\r\n\r\n`, "latin1");
    if (body?.bytes instanceof Uint8Array) this.#socket.write(body.bytes);
    else if (body) writeStreamBody(this.#socket, body.bytes, body.length).catch((err: unknown) => this.#fail(err));
  }

  /** Where the next read lands: the body's free memory while it is framed by length or close and open, else the read buffer. */
  #nextReadBuffer(): Uint8Array {
    const kind = this.#framing?.kind;
    const direct = (kind === "length" && this.#remaining > 0) || kind === "close";
    return direct && !this.#socket.destroyed ? this.#body.room() : this.#readBuffer;
  }

  #onRead(buf: Uint8Array, n: number): boolean {
    try {
      if (buf !== this.#readBuffer) return this.#onBodyRead(n);
      let from = 0;
      if (this.#framing === undefined) {
        const head = this.#readHead(buf, n);
        if (head === undefined) return true;
        from = head.bodyAt;
        this.#respond(head.head);
      }
      return this.#onBody(buf, from, n);
    } catch (err) {
      this.#fail(err);
      return false;
    }
  }

  /** Gathers head bytes from `buf[0..n)`, skipping interim responses; the final head and where its body starts, once complete. */
  #readHead(buf: Uint8Array, n: number): { head: ResponseHead; bodyAt: number } | undefined {
    let from = 0;
    for (;;) {
      const bytes = (this.#headBytes ??= this.#spares.head.pop() ?? Buffer.allocUnsafeSlow(MAX_HEAD_BYTES + CRLFCRLF.length));
      const seen = this.#headLength;
      const take = Math.min(n - from, bytes.length - seen);
      bytes.set(buf.subarray(from, from + take), seen);
      this.#headLength += take;
      const end = bytes.subarray(0, this.#headLength).indexOf(CRLFCRLF, Math.max(0, seen - 3));
      if (end < 0 && this.#headLength === bytes.length) throw new ProtocolError(`response head over ${MAX_HEAD_BYTES} bytes`);
      if (end < 0) return undefined;
      const head = parseResponseHead(bytes.toString("latin1", 0, end));
      from += end + 4 - seen;
      this.#headLength = 0;
      if (head.status >= 200) {
        // Parsed into a string: the buffer is free for the client's next head.
        if (this.#spares.head.length < KEPT_READ_BUFFERS) this.#spares.head.push(bytes);
        this.#headBytes = undefined;
        if (head.status > 599) throw new ProtocolError(`invalid status ${head.status}`);
        return { head, bodyAt: from };
      }
      if (head.status === 101 || ++this.#interim > MAX_INTERIM) throw new ProtocolError(`unexpected ${head.status} response`);
    }
  }

  #respond(head: ResponseHead): void {
    const framing = head.status === 205 ? ({ kind: "none" } as const) : bodyFraming(this.#method, head);
    const response = new SocketResponse(head, this.#url.href, framing.kind === "none" ? undefined : this.#body);
    this.#framing = framing;
    if (framing.kind === "length") {
      this.#remaining = framing.length;
      this.#body.expect(framing.length);
    }
    if (framing.kind === "chunked") this.#decoder = new ChunkedDecoder();
    this.#settled = true;
    this.#settle.resolve(response);
    if (framing.kind === "none" || (framing.kind === "length" && framing.length === 0)) this.#endBody();
  }

  /** Takes the `n` body bytes a read put straight into the body's memory ({@link BodyQueue.room}); returns false to pause the socket. */
  #onBodyRead(n: number): boolean {
    if (this.#framing?.kind === "close") return this.#body.commit(n);
    // Bytes past the declared length are never handed out: the connection closes at the body's end.
    const take = Math.min(this.#remaining, n);
    this.#remaining -= take;
    const more = this.#body.commit(take);
    if (this.#remaining === 0) this.#endBody();
    return more;
  }

  /** Takes body bytes `buf[from..to)`; returns false to pause the socket. */
  #onBody(buf: Uint8Array, from: number, to: number): boolean {
    const framing = this.#framing?.kind;
    if (framing === "close") return this.#body.push(buf, from, to);
    if (framing === "length") {
      const take = Math.min(this.#remaining, to - from);
      this.#remaining -= take;
      const more = this.#body.push(buf, from, from + take);
      if (this.#remaining === 0) this.#endBody();
      return more;
    }
    const decoder = this.#decoder;
    if (decoder === undefined) return true;
    let more = true;
    decoder.feed(buf, from, to, (b, start, end) => {
      more = this.#body.push(b, start, end) && more;
    });
    if (decoder.done) this.#endBody();
    return more;
  }

  #onEnd(): void {
    if (this.#framing?.kind === "close") this.#endBody();
    else if (this.#settled) this.#fail(new ProtocolError("connection closed before the body ended"));
    else this.#fail(new ProtocolError("connection closed before a response"));
  }

  #endBody(): void {
    this.#body.end();
    this.#close();
  }

  readonly #onAbort = (): void => {
    const reason = this.#signal?.reason as Error;
    if (this.#settled) this.#body.fail(reason);
    else this.#settle.reject(reason);
    this.#settled = true;
    this.#close();
  };

  /** Fails the exchange: its promise when no response came yet, else its body (a no-op once the body ended). */
  #fail(err: unknown): void {
    if (this.#settled) this.#body.fail(err instanceof TypeError ? err : new TypeError("terminated", { cause: err }));
    else if (this.#signal?.aborted === true) this.#settle.reject(this.#signal.reason);
    else this.#settle.reject(new TypeError("fetch failed", { cause: err }));
    this.#settled = true;
    this.#close();
  }

  #close(): void {
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#socket.destroy();
  }
}

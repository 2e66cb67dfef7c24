import https from "node:https";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { RequestContext } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { nodeHttp } from "../../internal/node-http.js";
import { requestAgent, type AgentOption } from "../transport/index.js";

/** The answer to a GET: its status, its headers (names lower-cased) and its body as bytes, read by the caller. @internal */
export interface ContextAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  /** Destroying it closes the request's connection. */
  readonly body: Readable;
}

/** undici's public `Dispatcher.request`, on the dispatcher client-node 2 puts on a request context. */
interface Dispatcher {
  request(options: {
    origin: string;
    path: string;
    method: "GET";
    headers: Record<string, string>;
    signal: AbortSignal;
  }): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: Readable }>;
}

/** client-node 2's dispatcher accessor of `RequestContext` (client-node 1 has none). */
interface DispatcherAccessor {
  getDispatcher?(): Dispatcher | undefined;
}

/**
 * Sends the GET an authenticated client-node request context describes (its URL and headers) on
 * the connections its authentication chose: client-node 2's undici dispatcher, else client-node
 * 1's agent over `node:http(s)`. Unlike client-node's HTTP libraries, it hands the body back as a
 * stream (theirs only read it whole) and follows no redirect; as theirs, it asks for gzip, and a
 * gzip body comes back inflated (a cap on it counts inflated bytes).
 *
 * @internal
 */
export async function sendContextGet(context: RequestContext, signal: AbortSignal): Promise<ContextAnswer> {
  signal.throwIfAborted();
  const target = new URL(context.getUrl());
  // A large list arrives gzipped, as client-node asks for it: a tenth of the bytes on the wire, and
  // (measured with bench:watch on a real API server) a smaller heap once listed than the plain body.
  const headers = { ...context.getHeaders(), "accept-encoding": "gzip" };
  const dispatcher = (context as DispatcherAccessor).getDispatcher?.();
  if (dispatcher === undefined) return nodeRequest(target, headers, requestAgent(context), signal);
  const answer = await dispatcher.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: "GET",
    headers,
    signal,
  });
  return inflated({ statusCode: answer.statusCode, headers: flatHeaders(answer.headers), body: answer.body });
}

/** A GET over Node's own client, on the agent client-node 1's authentication chose (its TLS, proxy and pool). */
function nodeRequest(
  url: URL,
  headers: Record<string, string>,
  option: AgentOption | undefined,
  signal: AbortSignal,
): Promise<ContextAnswer> {
  return new Promise((resolve, reject) => {
    // keepAliveAuthentication's agent is a function pinned to the API server's origin: it throws for another.
    const agent = typeof option === "function" ? option(url) : option;
    const send = url.protocol === "https:" ? https.request : nodeHttp().request;
    const request = send(url, { method: "GET", headers, signal, ...(agent === undefined ? {} : { agent }) }, (response) =>
      resolve(inflated({ statusCode: response.statusCode ?? 0, headers: flatHeaders(response.headers), body: response })),
    );
    // As client-node's Watch does: TCP keep-alive probes find a peer that vanished without a FIN.
    request.on("socket", (socket) => socket.setKeepAlive(true, 30_000));
    request.on("error", reject);
    request.end();
  });
}

/**
 * `answer` with a gzip body inflated as it is read. Destroying the inflated body closes the
 * connection; a corrupt or cut-short gzip body fails it with `ERR_UNEXPECTED_OBJECT`.
 */
function inflated(answer: ContextAnswer): ContextAnswer {
  if (answer.headers["content-encoding"] !== "gzip") return answer;
  const { body } = answer;
  const gunzip = createGunzip();
  const out = new PassThrough();
  const fail = (message: string, cause?: unknown): void => void out.destroy(new CocoonError("ERR_UNEXPECTED_OBJECT", message, { cause }));
  body.on("error", (err) => out.destroy(err));
  body.on("close", () => {
    if (!body.readableEnded) fail("the API server closed the connection inside its answer: cut short");
  });
  gunzip.on("error", (err) => fail("the API server's gzip answer is corrupt", err));
  out.on("close", () => {
    body.destroy();
    gunzip.destroy();
  });
  body.pipe(gunzip).pipe(out);
  // The length on the wire is the gzip body's, not what is read: dropped, so a cap counts inflated bytes only.
  const { "content-length": _wire, ...headers } = answer.headers;
  return { ...answer, headers, body: out };
}

/** Headers as client-node's `ResponseContext` holds them: one string per name, repeated values joined. */
function flatHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

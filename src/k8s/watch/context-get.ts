import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import type { RequestContext } from "@kubernetes/client-node";
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
 * stream (theirs only read it whole), follows no redirect and asks for no compression.
 *
 * @internal
 */
export async function sendContextGet(context: RequestContext, signal: AbortSignal): Promise<ContextAnswer> {
  signal.throwIfAborted();
  const target = new URL(context.getUrl());
  const headers = { ...context.getHeaders() };
  const dispatcher = (context as DispatcherAccessor).getDispatcher?.();
  if (dispatcher === undefined) return nodeRequest(target, headers, requestAgent(context), signal);
  const answer = await dispatcher.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: "GET",
    headers,
    signal,
  });
  return { statusCode: answer.statusCode, headers: flatHeaders(answer.headers), body: answer.body };
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
    const send = url.protocol === "https:" ? https.request : http.request;
    const request = send(url, { method: "GET", headers, signal, ...(agent === undefined ? {} : { agent }) }, (response) =>
      resolve({ statusCode: response.statusCode ?? 0, headers: flatHeaders(response.headers), body: response }),
    );
    // As client-node's Watch does: TCP keep-alive probes find a peer that vanished without a FIN.
    request.on("socket", (socket) => socket.setKeepAlive(true, 30_000));
    request.on("error", reject);
    request.end();
  });
}

/** Headers as client-node's `ResponseContext` holds them: one string per name, repeated values joined. */
function flatHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

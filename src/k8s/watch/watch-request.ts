import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { ApiException, HttpMethod, RequestContext, type Configuration, type KubeConfig } from "@kubernetes/client-node";
import { requestAgent, type AgentOption } from "../transport/index.js";
import type { RefusalError, WatchRequester, WatchResponse } from "./watch-requester.js";

/** A refusal as client-node's `ApiException`, as its lists throw. @internal */
export const apiExceptionRefusal: RefusalError = (code, message, status) => new ApiException(code, message, status, {});

/** undici's public `Dispatcher.request`, on the dispatcher client-node 2 puts on a request context. */
interface Dispatcher {
  request(options: {
    origin: string;
    path: string;
    method: "GET";
    headers: Record<string, string>;
    signal: AbortSignal;
  }): Promise<{ statusCode: number; body: Readable }>;
}

/** client-node 2's dispatcher accessor of `RequestContext` (client-node 1 has none). */
interface DispatcherAccessor {
  getDispatcher?(): Dispatcher | undefined;
}

/**
 * Watch requests authenticated as the lists are: by the configuration's default authentication
 * (for {@link createClients}' configuration, the shared keep-alive agents of client-node 1 or
 * dispatchers of client-node 2), or by the `KubeConfig` itself. The body is handed back as bytes
 * rather than to client-node's `Watch`, which splits lines without a bound and drops those that
 * are not JSON: the caller splits them with a cap and surfaces what does not parse.
 *
 * @internal
 */
export function watchRequester(kubeConfig: KubeConfig, configuration: Configuration): WatchRequester {
  const auth = configuration.authMethods.default ?? kubeConfig;
  return async (url, signal) => {
    const context = new RequestContext(url.toString(), HttpMethod.GET);
    await auth.applySecurityAuthentication(context);
    signal.throwIfAborted();
    const target = new URL(context.getUrl());
    const headers = { ...context.getHeaders() };
    const dispatcher = (context as DispatcherAccessor).getDispatcher?.();
    if (dispatcher !== undefined) {
      const { statusCode, body } = await dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: "GET",
        headers,
        signal,
      });
      return { statusCode, body };
    }
    return nodeRequest(target, headers, requestAgent(context), signal);
  };
}

/** A GET over Node's own client, on the agent client-node 1's authentication chose (its TLS, proxy and pool). */
function nodeRequest(
  url: URL,
  headers: Record<string, string>,
  option: AgentOption | undefined,
  signal: AbortSignal,
): Promise<WatchResponse> {
  return new Promise((resolve, reject) => {
    // keepAliveAuthentication's agent is a function pinned to the API server's origin: it throws for another.
    const agent = typeof option === "function" ? option(url) : option;
    const send = url.protocol === "https:" ? https.request : http.request;
    const request = send(url, { method: "GET", headers, signal, ...(agent === undefined ? {} : { agent }) }, (response) =>
      resolve({ statusCode: response.statusCode ?? 0, body: response }),
    );
    // As client-node's Watch does: TCP keep-alive probes find a peer that vanished without a FIN.
    request.on("socket", (socket) => socket.setKeepAlive(true, 30_000));
    request.on("error", reject);
    request.end();
  });
}

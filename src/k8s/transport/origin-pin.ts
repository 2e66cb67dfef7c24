import type http from "node:http";
import { CocoonError } from "../../errors.js";

/**
 * node-fetch 2's `agent` option as client-node 1 passes it: an agent, or a function node-fetch
 * calls with every URL it is about to connect to, the first request's and each redirect's.
 *
 * @example
 * ```ts
 * const option: AgentOption = (url) => (originOf(url) === origin ? agent : undefined);
 * ```
 * @internal
 */
export type AgentOption = http.Agent | ((url: URL | { readonly href: string }) => http.Agent | undefined);

/** What this module uses of an undici dispatcher (client-node 2): `compose`, public since undici 6. */
interface ComposableDispatcher {
  compose(interceptor: (dispatch: DispatchFn) => DispatchFn): unknown;
}
type DispatchFn = (options: { readonly origin?: string | URL | undefined }, handler: unknown) => boolean;

/**
 * The origin (`scheme://host:port`) of a URL, its port written only when not the scheme's default.
 *
 * @example
 * ```ts
 * originOf("https://10.0.0.1:443/api/v1/pods"); // => "https://10.0.0.1"
 * ```
 * @internal
 */
export const originOf = (url: string | URL | { readonly href: string }): string =>
  new URL(typeof url === "string" || url instanceof URL ? url : url.href).origin;

/**
 * The error a request to another origin than the API server's fails with, before anything is sent there.
 *
 * @example
 * ```ts
 * throw crossOriginError("https://10.0.0.1:6443", "https://10.0.0.1:8443/api/v1/pods");
 * ```
 * @internal
 */
export function crossOriginError(origin: string, target: string): CocoonError {
  return new CocoonError(
    "ERR_CROSS_ORIGIN_REDIRECT",
    `the API server at ${origin} redirected a request to ${originOf(target)}: credentials never leave the API server's origin`,
  );
}

const pinnedAgents = new WeakMap<http.Agent, Map<string, AgentOption>>();
const pinnedWithoutAgent = new Map<string, AgentOption>();

/**
 * `agent` as a node-fetch agent function that refuses any URL outside `origin`: node-fetch calls it
 * with each redirect's URL before it connects, so the throw rejects the request before a socket is
 * opened there (no client certificate offered, no `Authorization` sent). One function per agent
 * and origin, so a request context keeps the same agent option from call to call.
 *
 * @example
 * ```ts
 * setRequestAgent(context, originPinnedAgent(sharedAgent, originOf(context.getUrl())));
 * ```
 * @internal
 */
export function originPinnedAgent(agent: http.Agent | undefined, origin: string): AgentOption {
  let byOrigin = agent === undefined ? pinnedWithoutAgent : pinnedAgents.get(agent);
  if (byOrigin === undefined) {
    byOrigin = new Map();
    pinnedAgents.set(agent as http.Agent, byOrigin);
  }
  let pinned = byOrigin.get(origin);
  if (pinned === undefined) {
    pinned = (url) => {
      if (originOf(url) !== origin) throw crossOriginError(origin, originOf(url));
      return agent;
    };
    byOrigin.set(origin, pinned);
  }
  return pinned;
}

const pinnedDispatchers = new WeakMap<object, Map<string, unknown>>();

/**
 * `dispatcher` (client-node 2's undici `Agent` or `ProxyAgent`) composed with an interceptor that
 * refuses any request to another origin than `origin`: undici's `fetch` follows a redirect by
 * dispatching to the new origin, so the refusal comes before the dispatcher connects there. One
 * composed dispatcher per dispatcher and origin.
 *
 * @example
 * ```ts
 * context.setDispatcher(originPinnedDispatcher(context.getDispatcher(), originOf(context.getUrl())));
 * ```
 * @internal
 */
export function originPinnedDispatcher(dispatcher: object, origin: string): unknown {
  let byOrigin = pinnedDispatchers.get(dispatcher);
  if (byOrigin === undefined) {
    byOrigin = new Map();
    pinnedDispatchers.set(dispatcher, byOrigin);
  }
  let pinned = byOrigin.get(origin);
  if (pinned === undefined) {
    pinned = (dispatcher as ComposableDispatcher).compose((dispatch) => (options, handler) => {
      const target = options.origin;
      if (target !== undefined && originOf(target) !== origin) throw crossOriginError(origin, originOf(target));
      return dispatch(options, handler);
    });
    byOrigin.set(origin, pinned);
  }
  return pinned;
}

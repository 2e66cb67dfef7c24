import type http from "node:http";
import type { KubeConfig, RequestContext, SecurityAuthentication } from "@kubernetes/client-node";
import { agentTwin, sameAgentSettings } from "./keep-alive-agent.js";
import { originOf, originPinnedAgent } from "./origin-pin.js";
import { requestAgent, setRequestAgent } from "./request-agent.js";
import { buildsDispatchers, sharedDispatchers } from "./shared-dispatchers.js";

/** Free sockets idle this long are closed by the client, before kube-apiserver's 90 s idle timeout can race a request. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Distinct connection settings kept at once; the oldest is dropped (not destroyed) beyond this. */
const MAX_SETTINGS = 16;

/** A client-node authentication method that shares keep-alive connections; see {@link keepAliveAuthentication}. */
export interface KeepAliveAuthentication extends SecurityAuthentication {
  /** Closes every shared connection. Later calls open new ones. */
  close(): void;
}

/** Options of {@link keepAliveAuthentication}. */
export interface KeepAliveOptions {
  /**
   * Options merged into every shared agent (e.g. `maxSockets`); `keepAlive` is always on,
   * `timeout` (idle time before a free socket is closed) defaults to 60 000 ms and `scheduling` to
   * `"lifo"` (the most recently used free socket goes first, so a quiet client keeps one warm
   * connection and lets the rest time out). `maxSockets` stays unbounded, as client-go's is over
   * HTTP/1.1: a cap would queue concurrent requests behind each other.
   *
   * client-node 1 only: client-node 2 builds undici dispatchers, which are shared as built (undici
   * closes an idle connection after the server's keep-alive hint, or 4 s without one) and take none
   * of these options.
   */
  agentOptions?: http.AgentOptions | undefined;
}

/**
 * Wraps a `KubeConfig` as a client-node authentication method that reuses connections.
 *
 * Each request is first authenticated by the `KubeConfig` itself (`applySecurityAuthentication`:
 * bearer tokens, token files, exec and auth-provider plugins, basic auth, client certificates,
 * CA, `insecure-skip-tls-verify`, `tls-server-name`, `proxy-url`), which also builds a fresh agent
 * for the request, as client-node 1.x does on every call. That agent is then swapped for a cached
 * keep-alive agent of the same class built from the same options, one per distinct
 * TLS/proxy setting, so a rotated certificate or token file still takes effect on the next request.
 * Agents it cannot rebuild (SOCKS proxies) are left exactly as the `KubeConfig` set them.
 *
 * On client-node 2, which builds an undici dispatcher (a new connection pool) per request instead
 * of an agent, the first dispatcher client-node builds for a TLS/proxy setting (SOCKS included) is
 * kept and given to every later request with that setting; `agentOptions` does not apply there.
 *
 * Credentials stay with the request's origin (scheme, host and port): a redirect to another origin
 * rejects the request with `ERR_CROSS_ORIGIN_REDIRECT` before anything is sent there, so neither
 * the bearer token nor the client certificate reaches it (on client-node 1 the agent is handed to
 * node-fetch as a function it calls for each URL, on client-node 2 the dispatcher is composed with
 * an interceptor; client-node 2 reports the refusal as `fetch failed` with the `CocoonError` as its
 * `cause`, which `createClients` unwraps). A redirect within the origin is followed, as client-go does.
 * One exception, on client-node 2 only: a kubeconfig with no TLS setting at all (no CA, client
 * certificate, `insecure-skip-tls-verify` or `tls-server-name`) gets no dispatcher from client-node,
 * so its requests go through undici's global dispatcher, which is not pinned; there undici's `fetch`
 * drops `Authorization` on a redirect to another origin (the Fetch standard) and there is no client
 * certificate to offer, but the redirected request is sent.
 *
 * @example
 * ```ts
 * const auth = keepAliveAuthentication(kubeConfig);
 * const configuration = createConfiguration({
 *   baseServer: new ServerConfiguration(kubeConfig.getCurrentCluster()!.server, {}),
 *   authMethods: { default: auth },
 * });
 * const apps = new AppsV1Api(configuration);
 * ```
 */
export function keepAliveAuthentication(kubeConfig: KubeConfig, options: KeepAliveOptions = {}): KeepAliveAuthentication {
  if (buildsDispatchers(kubeConfig)) {
    const dispatchers = sharedDispatchers(kubeConfig, MAX_SETTINGS);
    return {
      getName: () => "cocoon-common keep-alive kubeconfig",
      applySecurityAuthentication: dispatchers.authenticate,
      close: dispatchers.close,
    };
  }
  const extra: http.AgentOptions = { timeout: DEFAULT_IDLE_TIMEOUT_MS, scheduling: "lifo", ...options.agentOptions };
  const agents = new Map<string, http.Agent>();
  // The previous request's fresh agent and the key it mapped to: a request made the same way (the
  // usual case) reuses that agent after a byte compare, without hashing the CA and certificates again.
  let last: { fresh: http.Agent; key: string } | undefined;

  const shared = (fresh: http.Agent): http.Agent | undefined => {
    if (last !== undefined && sameAgentSettings(last.fresh, fresh)) {
      const agent = agents.get(last.key);
      if (agent !== undefined) return agent;
    }
    const twin = agentTwin(fresh);
    if (twin === undefined) return undefined;
    let agent = agents.get(twin.key);
    if (agent === undefined) {
      agent = twin.make(extra);
      if (agents.size >= MAX_SETTINGS) agents.delete(agents.keys().next().value as string);
      agents.set(twin.key, agent);
    }
    last = { fresh, key: twin.key };
    return agent;
  };

  return {
    getName: () => "cocoon-common keep-alive kubeconfig",
    async applySecurityAuthentication(context: RequestContext): Promise<void> {
      await kubeConfig.applySecurityAuthentication(context);
      const fresh = requestAgent(context);
      const agent = typeof fresh === "object" ? (shared(fresh) ?? fresh) : undefined;
      setRequestAgent(context, originPinnedAgent(agent, originOf(context.getUrl())));
    },
    close(): void {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
      last = undefined;
    },
  };
}

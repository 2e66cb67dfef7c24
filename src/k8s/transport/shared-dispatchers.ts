import type { Cluster, KubeConfig, RequestContext } from "@kubernetes/client-node";
import { originOf, originPinnedDispatcher } from "./origin-pin.js";
import { sameSettings, settingsFingerprint } from "./settings-equality.js";

/** What this module uses of an undici dispatcher. */
interface Dispatcher {
  destroy(): Promise<void>;
}

/** The client-node 2 `KubeConfig` methods this module relies on (client-node 1 has neither). */
interface DispatcherKubeConfig {
  createDispatcherOptions(cluster: Cluster | null, agentOptions: unknown): unknown;
  createDispatcher(cluster: Cluster | null, agentOptions: unknown): Dispatcher | undefined;
}

/** client-node 2's dispatcher accessors of `RequestContext` (client-node 1's has none). */
interface DispatcherContext {
  getDispatcher(): object | undefined;
  setDispatcher(dispatcher: unknown): void;
}

/** Keep-alive undici dispatchers for client-node 2, one per distinct connection setting. */
export interface SharedDispatchers {
  /** Authenticates the request as the `KubeConfig` does, with the shared dispatcher of its setting. */
  readonly authenticate: (context: RequestContext) => Promise<void>;
  /** Destroys every shared dispatcher and its connections. Later requests get new ones. */
  readonly close: () => void;
}

/**
 * Tells whether `kubeConfig` builds an undici dispatcher per request (client-node 2).
 *
 * @internal
 */
export function buildsDispatchers(kubeConfig: KubeConfig): boolean {
  const methods = kubeConfig as unknown as Partial<DispatcherKubeConfig>;
  return typeof methods.createDispatcherOptions === "function" && typeof methods.createDispatcher === "function";
}

/**
 * Shares client-node 2's dispatchers, or throws if `kubeConfig` does not build them ({@link buildsDispatchers}).
 * Its `applySecurityAuthentication` reads the TLS settings
 * (CA, client certificate and key, `insecure-skip-tls-verify`, `tls-server-name`) afresh and hands
 * them, with the cluster, to `this.createDispatcher`, which builds a new undici `Agent` or
 * `ProxyAgent` (a new connection pool) every time. Here it runs on a view of the `KubeConfig` whose
 * `createDispatcher` (private in client-node's types, called as `this.createDispatcher`) keys those settings by client-node's own public `createDispatcherOptions` and
 * returns the first dispatcher client-node built for the key, so a rotated certificate or CA still
 * takes effect on the next request and no redundant pool is ever built. Beyond `max` settings the
 * oldest is dropped, not destroyed: a request may still be using it, and undici closes idle
 * connections by itself.
 *
 * @internal
 */
export function sharedDispatchers(kubeConfig: KubeConfig, max: number): SharedDispatchers {
  const methods = kubeConfig as unknown as DispatcherKubeConfig;
  const dispatchers = new Map<string, Dispatcher>();
  // The previous request's settings and their key: settings equal to them (the usual case) are
  // matched by a byte compare, without hashing the CA and certificates again.
  let last: { settings: unknown; key: string } | undefined;

  const createDispatcher = (cluster: Cluster | null, agentOptions: unknown): Dispatcher | undefined => {
    const settings = methods.createDispatcherOptions(cluster, agentOptions);
    const key = last !== undefined && sameSettings(last.settings, settings) ? last.key : settingsFingerprint(settings);
    let dispatcher = dispatchers.get(key);
    if (dispatcher === undefined) {
      dispatcher = methods.createDispatcher(cluster, agentOptions);
      if (dispatcher === undefined) return undefined; // no TLS setting at all: fetch's global dispatcher, shared already
      if (dispatchers.size >= max) dispatchers.delete(dispatchers.keys().next().value as string);
      dispatchers.set(key, dispatcher);
    }
    last = { settings, key };
    return dispatcher;
  };
  const view = Object.create(kubeConfig, { createDispatcher: { value: createDispatcher } }) as KubeConfig;

  return {
    authenticate: async (context) => {
      await view.applySecurityAuthentication(context);
      const pinned = context as unknown as DispatcherContext;
      const dispatcher = pinned.getDispatcher();
      if (dispatcher !== undefined) pinned.setDispatcher(originPinnedDispatcher(dispatcher, originOf(context.getUrl())));
    },
    close: () => {
      for (const dispatcher of dispatchers.values()) dispatcher.destroy().catch(() => undefined);
      dispatchers.clear();
      last = undefined;
    },
  };
}

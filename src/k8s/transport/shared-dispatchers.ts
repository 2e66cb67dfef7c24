import type { Cluster, KubeConfig, RequestContext } from "@kubernetes/client-node";
import { originOf, originPinnedDispatcher } from "./origin-pin.js";
import { sameSettings, settingsFingerprint } from "./settings-equality.js";

/** What this module uses of an undici dispatcher. */
interface Dispatcher {
  destroy(): Promise<void>;
}

/** client-node 2's public `KubeConfig.createDispatcherOptions` (client-node 1 has none). */
interface DispatcherOptionsKubeConfig {
  createDispatcherOptions(cluster: Cluster | null, agentOptions: AgentOptions): unknown;
}

/** The TLS fields `applyToHTTPSOptions` fills in, which client-node builds a dispatcher from. */
interface AgentOptions {
  ca?: unknown;
  cert?: unknown;
  key?: unknown;
  pfx?: unknown;
  passphrase?: unknown;
  rejectUnauthorized?: unknown;
  servername?: unknown;
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
  return typeof (kubeConfig as unknown as Partial<DispatcherOptionsKubeConfig>).createDispatcherOptions === "function";
}

/**
 * Shares client-node 2's dispatchers, or throws if `kubeConfig` does not build them ({@link buildsDispatchers}).
 * client-node's `applySecurityAuthentication` reads the TLS settings (CA, client certificate and
 * key, `insecure-skip-tls-verify`, `tls-server-name`) afresh and builds a new undici `Agent` or
 * `ProxyAgent` (a new connection pool) on the request every time. Here each request is
 * authenticated by it as it comes; its settings are read again through the public
 * `applyToHTTPSOptions` and keyed by client-node's own public `createDispatcherOptions`; the
 * request gets the first dispatcher client-node built for that key, and the one it just built,
 * which has no connection yet, is destroyed. A rotated certificate or CA takes effect on the next
 * request. Beyond `max` settings the oldest is dropped, not destroyed: a request may still be using
 * it, and undici closes idle connections by itself.
 *
 * @internal
 */
export function sharedDispatchers(kubeConfig: KubeConfig, max: number): SharedDispatchers {
  const options = kubeConfig as unknown as DispatcherOptionsKubeConfig;
  const dispatchers = new Map<string, Dispatcher>();
  // The previous request's settings and their key: settings equal to them (the usual case) are
  // matched by a byte compare, without hashing the CA and certificates again.
  let last: { settings: unknown; key: string } | undefined;

  const settingsNow = async (): Promise<unknown> => {
    const tls: AgentOptions = {};
    await kubeConfig.applyToHTTPSOptions(tls);
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = tls;
    return options.createDispatcherOptions(kubeConfig.getCurrentCluster(), {
      ca,
      cert,
      key,
      pfx,
      passphrase,
      rejectUnauthorized,
      servername,
    });
  };

  return {
    authenticate: async (context) => {
      await kubeConfig.applySecurityAuthentication(context);
      const pinned = context as unknown as DispatcherContext;
      const fresh = pinned.getDispatcher() as Dispatcher | undefined;
      if (fresh === undefined) return; // no TLS setting at all: fetch's global dispatcher, shared already
      const settings = await settingsNow();
      const key = last !== undefined && sameSettings(last.settings, settings) ? last.key : settingsFingerprint(settings);
      let dispatcher = dispatchers.get(key);
      if (dispatcher === undefined) {
        dispatcher = fresh;
        if (dispatchers.size >= max) dispatchers.delete(dispatchers.keys().next().value as string);
        dispatchers.set(key, dispatcher);
      } else fresh.destroy().catch(() => undefined);
      last = { settings, key };
      pinned.setDispatcher(originPinnedDispatcher(dispatcher, originOf(context.getUrl())));
    },
    close: () => {
      for (const dispatcher of dispatchers.values()) dispatcher.destroy().catch(() => undefined);
      dispatchers.clear();
      last = undefined;
    },
  };
}

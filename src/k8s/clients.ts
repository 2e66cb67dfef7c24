import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  ServerConfiguration,
  createConfiguration,
  setHeaderMiddleware,
  type Configuration,
  type KubeConfig,
} from "@kubernetes/client-node";
import { CocoonError } from "../errors.js";
import { clientNodeMajor, clientNodeVersion } from "./client-node-line.js";
import { createHttpsTransport } from "./https-transport.js";
import { keepAliveAuthentication, type KeepAliveOptions } from "./keep-alive-authentication.js";

/**
 * Options of {@link createClients}.
 *
 * @example
 * ```ts
 * const options: CreateClientsOptions = { transport: "node" }; // opt in to the hand-written node:https transport
 * const clients = createClients(loadKubeConfig(), options);
 * ```
 */
export interface CreateClientsOptions extends KeepAliveOptions {
  /**
   * How requests go out. Both send them on the same shared keep-alive agents, which is where nearly
   * all of the gain over stock client-node is (per patch against a raw `node:https` floor on a
   * local kube-apiserver, `npm run bench:k8s`: stock client-node 2.54×, client-node with the
   * shared agent 1.12×, `"node"` 1.06×).
   *
   * - `"fetch"` (the default): client-node's own HTTP library (node-fetch in client-node 1.x), so
   *   requests, redirects and errors are exactly client-node's.
   * - `"node"`: {@link createHttpsTransport}, about 100 µs less CPU per call, with differences a
   *   user can see (proven by test/integration/k8s-transports.test.ts): no `User-Agent` (the API
   *   server then records field manager `unknown` instead of `node-fetch` in `managedFields` and
   *   audit logs), no redirects followed (a 3xx rejects as an `ApiException` with that code), a
   *   network or TLS failure rejects with Node's own `Error` (same `code`, message without the URL)
   *   instead of a `FetchError`, and an abort signal passed to client-node's own calls rejects with
   *   Node's `AbortError` (`code` `ABORT_ERR`) instead of node-fetch's. Status errors (404, 409,
   *   422, ...) are the same `ApiException`s, and this package's helpers reject an aborted call with
   *   the signal's reason either way.
   *
   * On client-node 2 `"fetch"` is its undici `fetch` (its dispatchers shared the same way) and
   * `"node"` is refused: {@link createHttpsTransport} throws `ERR_INVALID_ARGUMENT`, as there are
   * no agents to send with.
   */
  transport?: "node" | "fetch" | undefined;
}

/**
 * client-node API clients that share keep-alive connections; made by {@link createClients}.
 *
 * Every helper of this package accepts it (or any object with the API clients the helper needs).
 */
export interface CocoonClients {
  /** The `KubeConfig` every request is authenticated by. */
  readonly kubeConfig: KubeConfig;
  /** The shared client-node configuration (server, keep-alive authentication, transport); pass it to any other API class. */
  readonly configuration: Configuration;
  /** Pods, namespaces and the rest of the core group. */
  readonly core: CoreV1Api;
  /** CocoonSets, CocoonHibernations and any other custom (or cluster) resource by group/version/plural. */
  readonly customObjects: CustomObjectsApi;
  /** CustomResourceDefinitions. */
  readonly apiextensions: ApiextensionsV1Api;
  /**
   * Makes another client-node API client on the same connections.
   *
   * @example
   * ```ts
   * const apps = clients.makeApiClient(AppsV1Api);
   * ```
   */
  makeApiClient<T>(apiClass: new (configuration: Configuration) => T): T;
  /** Closes the shared connections (e.g. at shutdown, or at the end of a test). The clients stay usable. */
  close(): void;
}

/**
 * Makes client-node API clients that reuse connections.
 *
 * client-node 1.x builds a new `https.Agent` for every call, so every request pays a TCP and TLS
 * handshake. These clients are built through client-node's own extension point
 * (`createConfiguration` with an authentication method, see {@link keepAliveAuthentication}):
 * the `KubeConfig` still authenticates every request (tokens, exec plugins, token files, client
 * certificates, TLS options, `proxy-url`), and one keep-alive agent per distinct setting carries it.
 * Requests go out through client-node's own HTTP library (node-fetch in 1.x) on those agents, so
 * they behave exactly as client-node's do; `transport: "node"` opts in to {@link createHttpsTransport},
 * a little cheaper but visibly different (see {@link CreateClientsOptions.transport}).
 *
 * @throws {@link CocoonError} `ERR_KUBECONFIG` when the `KubeConfig` has no current cluster.
 * @example
 * ```ts
 * const kubeConfig = loadKubeConfig();
 * const clients = createClients(kubeConfig);
 * const pod = await clients.core.readNamespacedPod({ name: "vk-ns-demo-0", namespace: "ns" });
 * await patchHibernateState(clients, pod, true);
 * ```
 */
export function createClients(kubeConfig: KubeConfig, options: CreateClientsOptions = {}): CocoonClients {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) {
    throw new CocoonError("ERR_KUBECONFIG", `kubeconfig has no current cluster (current context "${kubeConfig.getCurrentContext()}")`);
  }
  const auth = keepAliveAuthentication(kubeConfig, options);
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: auth },
    // What client-node 2's own makeApiClient sends (1.x sets none; node-fetch sends its own).
    ...(clientNodeMajor >= 2
      ? { middleware: [setHeaderMiddleware("User-Agent", `kubernetes-client-javascript/${clientNodeVersion}`)] }
      : {}),
    ...(options.transport === "node" ? { httpApi: createHttpsTransport() } : {}),
  });
  const makeApiClient = <T>(apiClass: new (configuration: Configuration) => T): T => new apiClass(configuration);
  return {
    kubeConfig,
    configuration,
    core: makeApiClient(CoreV1Api),
    customObjects: makeApiClient(CustomObjectsApi),
    apiextensions: makeApiClient(ApiextensionsV1Api),
    makeApiClient,
    close: () => auth.close(),
  };
}

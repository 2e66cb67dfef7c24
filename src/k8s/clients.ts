import {
  ApiextensionsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  ServerConfiguration,
  createConfiguration,
  setHeaderMiddleware,
  type Configuration,
  type KubeConfig,
} from "@kubernetes/client-node";
import { CocoonError } from "../errors.js";
import {
  cocoonHibernationClient,
  cocoonSetClient,
  type CocoonHibernationClient,
  type CocoonSetClient,
} from "./resources/cocoon-clients.js";
import {
  clientNodeMajor,
  clientNodeVersion,
  CrossOriginTypedLibrary,
  keepAliveAuthentication,
  type KeepAliveOptions,
} from "./transport/index.js";

/**
 * Options of {@link createClients}.
 *
 * @example
 * ```ts
 * const options: CreateClientsOptions = { agentOptions: { timeout: 30_000 } }; // close idle sockets after 30 s
 * const clients = createClients(loadKubeConfig(), options);
 * ```
 */
export type CreateClientsOptions = KeepAliveOptions;

/**
 * client-node API clients that share keep-alive connections; made by {@link createClients}.
 *
 * Every helper of this package accepts it (or any object with the API clients the helper needs).
 */
export interface CocoonClients {
  /** The `KubeConfig` every request is authenticated by. */
  readonly kubeConfig: KubeConfig;
  /** The shared client-node configuration (server, keep-alive authentication); pass it to any other API class. */
  readonly configuration: Configuration;
  /** Pods, namespaces and the rest of the core group. */
  readonly core: CoreV1Api;
  /** Leases (`coordination.k8s.io/v1`): the node's heartbeat that {@link keepNode} renews. */
  readonly coordination: CoordinationV1Api;
  /** CocoonSets, CocoonHibernations and any other custom (or cluster) resource by group/version/plural. */
  readonly customObjects: CustomObjectsApi;
  /** CustomResourceDefinitions. */
  readonly apiextensions: ApiextensionsV1Api;
  /**
   * CocoonSets, typed: every result parsed with `CocoonSetSchema` ({@link cocoonSetClient} on {@link CocoonClients.customObjects}).
   *
   * @example
   * ```ts
   * const { items } = await clients.cocoonSets.list({ namespace: "demo" });
   * ```
   */
  readonly cocoonSets: CocoonSetClient;
  /**
   * CocoonHibernations, typed: every result parsed with `CocoonHibernationSchema` ({@link cocoonHibernationClient}).
   *
   * @example
   * ```ts
   * const nap = await clients.cocoonHibernations.get({ namespace: "demo", name: "nap" });
   * ```
   */
  readonly cocoonHibernations: CocoonHibernationClient;
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
 * they behave exactly as client-node's do. On client-node 2 the same is done with its undici dispatchers.
 * A redirect to another origin than the server's rejects with `ERR_CROSS_ORIGIN_REDIRECT` before
 * anything (token or client certificate) is sent there; one within the origin is followed.
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
    httpApi: new CrossOriginTypedLibrary(),
    // What client-node 2's own makeApiClient sends (1.x sets none; node-fetch sends its own).
    ...(clientNodeMajor >= 2
      ? { middleware: [setHeaderMiddleware("User-Agent", `kubernetes-client-javascript/${clientNodeVersion}`)] }
      : {}),
  });
  const makeApiClient = <T>(apiClass: new (configuration: Configuration) => T): T => new apiClass(configuration);
  const customObjects = makeApiClient(CustomObjectsApi);
  return {
    kubeConfig,
    configuration,
    core: makeApiClient(CoreV1Api),
    coordination: makeApiClient(CoordinationV1Api),
    customObjects,
    apiextensions: makeApiClient(ApiextensionsV1Api),
    cocoonSets: cocoonSetClient({ customObjects }),
    cocoonHibernations: cocoonHibernationClient({ customObjects }),
    makeApiClient,
    close: () => auth.close(),
  };
}

import { HttpMethod, RequestContext, type Configuration, type KubeConfig } from "@kubernetes/client-node";
import { requestAgent } from "../transport/index.js";

/**
 * The `KubeConfig` client-node's `Watch` is given: a view of the user's whose authentication is
 * the configuration's (for {@link createClients}' configuration, the shared keep-alive
 * connections), so watch requests go out on the connections the lists use. client-node 2's `Watch`
 * authenticates a `RequestContext` and sends on its dispatcher; client-node 1's asks for node-fetch
 * options, which get the agent and headers that authentication put on a context.
 *
 * @internal
 */
export function watchKubeConfig(kubeConfig: KubeConfig, configuration: Configuration): KubeConfig {
  const auth = configuration.authMethods.default;
  if (auth === undefined || (auth as unknown) === kubeConfig) return kubeConfig;
  const server = kubeConfig.getCurrentCluster()?.server ?? "";
  return Object.create(kubeConfig, {
    applySecurityAuthentication: { value: (context: RequestContext) => auth.applySecurityAuthentication(context) },
    applyToFetchOptions: {
      value: async () => {
        const context = new RequestContext(server, HttpMethod.GET);
        await auth.applySecurityAuthentication(context);
        return { agent: requestAgent(context), headers: context.getHeaders(), method: "GET" };
      },
    },
  }) as KubeConfig;
}

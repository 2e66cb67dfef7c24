import https from "node:https";
import { CoreV1Api, ServerConfiguration, createConfiguration, type KubeConfig, type SecurityAuthentication } from "@kubernetes/client-node";
import { setRequestAgent } from "../src/k8s/transport/index.js";

/** A typed client-node API as a careful user builds it without this library, and the agent to close at the end. */
export interface CarefulClient {
  readonly core: CoreV1Api;
  close(): void;
}

/**
 * The honest peer of `createClients`: stock client-node on its own transport (node-fetch in 1.x),
 * each request authenticated by the `KubeConfig` (`applySecurityAuthentication`), then sent on ONE
 * keep-alive `https.Agent` built once with the kubeconfig's TLS settings instead of the fresh agent
 * client-node makes per request. What it lacks next to `createClients`: a rotated certificate or a
 * changed proxy needs a new agent, which this one never builds.
 */
export async function carefulClient(kubeConfig: KubeConfig): Promise<CarefulClient> {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) throw new Error("kubeconfig has no current cluster");
  const tls: https.RequestOptions = {};
  await kubeConfig.applyToHTTPSOptions(tls);
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = tls;
  const agent = new https.Agent({ keepAlive: true, ca, cert, key, pfx, passphrase, rejectUnauthorized, servername });
  const authentication: SecurityAuthentication = {
    getName: () => "kubeconfig on one shared keep-alive agent",
    async applySecurityAuthentication(context) {
      await kubeConfig.applySecurityAuthentication(context);
      setRequestAgent(context, agent);
    },
  };
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: authentication },
  });
  return { core: new CoreV1Api(configuration), close: () => agent.destroy() };
}

import type { KubeConfig } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { httpsRequester, type SenderTLS } from "./https-sender.js";
import type { KubeRequester } from "./kube-request.js";

/** The fields client-node's public `applyToHTTPSOptions` fills in that a request is sent with. */
interface AppliedOptions {
  headers?: Record<string, string | string[] | number | undefined>;
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  servername?: string;
  rejectUnauthorized?: boolean;
  auth?: string;
}

/**
 * A {@link KubeRequester} built from a client-node `KubeConfig` through its public members only: the
 * current cluster's `server`, and, for every request, `applyToHTTPSOptions` (the CA, client
 * certificate and key, `insecure-skip-tls-verify`, `tls-server-name`, and the `Authorization` header
 * of a token, token file, exec plugin or auth provider, read afresh as client-node reads them). It
 * sends over the same `node:https` stack as {@link kubeconfigRequester} and {@link inClusterRequester}.
 *
 * @throws {@link CocoonError} `ERR_KUBECONFIG` when the `KubeConfig` has no current cluster.
 * @example
 * ```ts
 * const requester = kubeConfigRequester(loadKubeConfig());
 * const kept = await keepNode(requester, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
 * ```
 */
export function kubeConfigRequester(kubeConfig: KubeConfig): KubeRequester {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) {
    throw new CocoonError("ERR_KUBECONFIG", `kubeconfig has no current cluster (current context "${kubeConfig.getCurrentContext()}")`);
  }
  return httpsRequester({
    server: cluster.server,
    credentials: async () => {
      const applied: AppliedOptions = {};
      await kubeConfig.applyToHTTPSOptions(applied as Parameters<KubeConfig["applyToHTTPSOptions"]>[0]);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(applied.headers ?? {})) if (value !== undefined) headers[name] = String(value);
      if (applied.auth !== undefined) headers["Authorization"] = `Basic ${Buffer.from(applied.auth).toString("base64")}`;
      const tls: SenderTLS = {
        ca: applied.ca,
        cert: applied.cert,
        key: applied.key,
        servername: applied.servername,
        rejectUnauthorized: applied.rejectUnauthorized,
      };
      return { tls, headers };
    },
  });
}

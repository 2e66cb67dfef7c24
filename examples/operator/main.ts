/**
 * `npx tsx examples/operator/main.ts`: runs the example operator against the cluster of the
 * kubeconfig (`KUBECONFIG`, else `~/.kube/config`, else in-cluster) until Ctrl-C.
 *
 * - `OCI_REGISTRY`: the snapshot registry (`host[:port][/path]`), credentials from `~/.docker/config.json`;
 * - `NAMESPACE`: the namespace whose CocoonSets it reconciles (`default`).
 *
 * @module
 */
import { createClients, loadKubeConfig } from "@cocoonstack/cocoon-common/k8s";
import { OCIRegistry, dockerConfigCredentials } from "@cocoonstack/cocoon-common/oci";
import { runOperator } from "./operator.js";

const abort = new AbortController();
process.once("SIGINT", () => abort.abort());
const clients = createClients(loadKubeConfig());
const registry = new OCIRegistry(process.env["OCI_REGISTRY"] || "127.0.0.1:5000", { credentials: dockerConfigCredentials() });
try {
  await runOperator({ clients, registry, namespace: process.env["NAMESPACE"] || "default", signal: abort.signal });
} finally {
  clients.close();
}

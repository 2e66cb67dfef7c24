/**
 * `npx tsx examples/kubelet/main.ts`: runs the example virtual kubelet for one node against the cluster of the
 * kubeconfig (`KUBECONFIG`, else `~/.kube/config`, else in-cluster) until Ctrl-C.
 *
 * - `NODE_NAME` (`cocoon-1`), `NODE_IP` (`127.0.0.1`): the node it registers;
 * - `KUBELET_ROOT` (`./.cocoon-kubelet/<node>`): where its VMs and snapshots live;
 * - `OCI_REGISTRY`: the snapshot registry (`host[:port][/path]`), credentials from `~/.docker/config.json`.
 *
 * @module
 */
import { join } from "node:path";
import { createClients, loadKubeConfig } from "@cocoonstack/cocoon-common/k8s";
import { OCIRegistry, dockerConfigCredentials } from "@cocoonstack/cocoon-common/oci";
import { runKubelet } from "./kubelet.js";

const abort = new AbortController();
process.once("SIGINT", () => abort.abort());
const nodeName = process.env["NODE_NAME"] || "cocoon-1";
const clients = createClients(loadKubeConfig());
const registry = new OCIRegistry(process.env["OCI_REGISTRY"] || "127.0.0.1:5000", { credentials: dockerConfigCredentials() });
try {
  await runKubelet({
    clients,
    registry,
    nodeName,
    nodeIP: process.env["NODE_IP"] || "127.0.0.1",
    root: process.env["KUBELET_ROOT"] || join(".cocoon-kubelet", nodeName),
    signal: abort.signal,
  });
} finally {
  clients.close();
}

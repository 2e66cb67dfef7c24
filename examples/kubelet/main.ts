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
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { inClusterRequester, kubeconfigRequester } from "@cocoonstack/cocoon-common/kubelet";
import { OCIRegistry, dockerConfigCredentials } from "@cocoonstack/cocoon-common/oci";
import { runKubelet } from "./kubelet.js";

const abort = new AbortController();
process.once("SIGINT", () => abort.abort());
const nodeName = process.env["NODE_NAME"] || "cocoon-1";
// No client-node: a kubeconfig file with a client certificate or a token, else the pod's service account.
const kubeconfigFile = process.env["KUBECONFIG"] || join(homedir(), ".kube", "config");
const clients = existsSync(kubeconfigFile.split(":")[0] ?? "") ? await kubeconfigRequester() : inClusterRequester();
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

/**
 * The virtual kubelet's node, as vk-cocoon keeps it: `keepNode` creates (or adopts) the node `buildVirtualNode`
 * describes (the provider taint, the cocoon-vm role, the pool, capacity and allocatable), renews its
 * Lease in `kube-node-lease` and re-sends its status on virtual-kubelet's schedule, and marks it not
 * ready when the virtual kubelet stops. The API server taints every new node
 * `node.kubernetes.io/not-ready:NoSchedule`; the cluster's node lifecycle controller lifts it once
 * the node is Ready and its Lease fresh, and puts it back when the virtual kubelet stops.
 *
 * @module
 */
import { keepNode, type KeptNode, type KubeRequester } from "@cocoonstack/cocoon-common/kubelet";

const GiB = 2 ** 30;

/** What the virtual kubelet says about its node. */
export interface NodeOptions {
  readonly name: string;
  readonly nodeIP: string;
  readonly pool?: string | undefined;
  /** Stops the heartbeats; the node is then marked not ready. */
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

/** Registers the node and keeps it until `signal` aborts. */
export function keepKubeletNode(clients: KubeRequester, options: NodeOptions): Promise<KeptNode> {
  const resources = { cpuCores: 8, memoryBytes: 32 * GiB, storageBytes: 200 * GiB, snapshotCache: { allocatableBytes: 200 * GiB } };
  return keepNode(clients, { ...options, resources, logger: { error: (message) => options.log(message) } });
}

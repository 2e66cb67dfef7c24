/**
 * The agent's node, as vk-cocoon registers it (`buildVirtualNode`: the provider taint, the
 * cocoon-vm role, the pool, capacity and allocatable), made schedulable: the API server taints every
 * new node `node.kubernetes.io/not-ready:NoSchedule`, and only a node lifecycle controller lifts it.
 * A virtual kubelet's node has no kubelet behind it, so the agent plays that controller for its own
 * node once it reports Ready.
 *
 * @module
 */
import type { V1Node } from "@kubernetes/client-node";
import { isAlreadyExists, type CocoonClients } from "@cocoonstack/cocoon-common/k8s";
import { buildVirtualNode } from "@cocoonstack/cocoon-common/meta";

const NOT_READY_TAINT = "node.kubernetes.io/not-ready";
const GiB = 2 ** 30;

/** What the agent says about its node. */
export interface NodeOptions {
  readonly name: string;
  readonly nodeIP: string;
  readonly pool?: string | undefined;
}

/** Registers (or re-registers) the node and lifts the not-ready taint; resolves to the node as stored. */
export async function registerAgentNode(clients: CocoonClients, options: NodeOptions): Promise<V1Node> {
  const resources = { cpuCores: 8, memoryBytes: 32 * GiB, storageBytes: 200 * GiB, snapshotCache: { allocatableBytes: 200 * GiB } };
  const built = buildVirtualNode({ ...options, resources, now: new Date() });
  const { status, ...withoutStatus } = built;
  let node = await clients.core.createNode({ body: withoutStatus }).catch(async (err: unknown) => {
    if (!isAlreadyExists(err)) throw err;
    return clients.core.readNode({ name: options.name });
  });
  node.status = status;
  node = await clients.core.replaceNodeStatus({ name: options.name, body: node });
  const taints = node.spec?.taints ?? [];
  if (!taints.some((t) => t.key === NOT_READY_TAINT)) return node;
  node.spec = Object.assign(node.spec ?? {}, { taints: taints.filter((t) => t.key !== NOT_READY_TAINT) });
  return clients.core.replaceNode({ name: options.name, body: node });
}

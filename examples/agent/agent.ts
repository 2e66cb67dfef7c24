/**
 * The agent's loop, for one node: register and keep the node (its Lease and status), then whenever a cocoon pod bound to it changes
 * (a typed watch), list those pods and bring each VM to what its pod asks for: deleted, hibernated
 * or running.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { watchCocoonPods, type CocoonClients } from "@cocoonstack/cocoon-common/k8s";
import { parseVMSpec, readHibernateState } from "@cocoonstack/cocoon-common/meta";
import type { OCIRegistry } from "@cocoonstack/cocoon-common/oci";
import { changeTrigger } from "../shared/change-trigger.js";
import { deletePod } from "./delete.js";
import { hibernatePod } from "./hibernate.js";
import { keepAgentNode } from "./node.js";
import { runPod } from "./start.js";

/** What the agent's steps work with. */
export interface AgentContext {
  readonly clients: CocoonClients;
  readonly registry: OCIRegistry;
  /** The node's data folder: its VMs and snapshots. */
  readonly root: string;
  readonly log: (line: string) => void;
}

/** The agent's settings. */
export interface AgentOptions extends Omit<AgentContext, "log"> {
  readonly nodeName: string;
  readonly nodeIP: string;
  readonly signal: AbortSignal;
  /** How long to wait for a change before syncing anyway; default 5 s. */
  readonly resyncMs?: number;
  readonly log?: (line: string) => void;
}

/** Brings one pod's VM to what the pod asks for. */
async function syncPod(context: AgentContext, pod: V1Pod): Promise<void> {
  if (pod.metadata?.deletionTimestamp) await deletePod(context, pod);
  else if (readHibernateState(pod)) await hibernatePod(context, pod);
  else await runPod(context, pod);
}

/** Keeps the node and runs its pods' VMs until `signal` aborts. */
export async function runAgent(options: AgentOptions): Promise<void> {
  const { clients, nodeName, signal, resyncMs = 5_000 } = options;
  const log = (line: string): void => (options.log ?? console.log)(`[${nodeName}] ${line}`);
  const context: AgentContext = { ...options, log };
  const node = await keepAgentNode(clients, { name: nodeName, nodeIP: options.nodeIP, signal, log });
  const fieldSelector = `spec.nodeName=${nodeName}`;
  const trigger = changeTrigger([watchCocoonPods(clients, { fieldSelector, signal })], { signal, resyncMs, log });
  try {
    do {
      const pods = await clients.core.listPodForAllNamespaces({ fieldSelector }).catch((err: unknown) => log(`list pods: ${String(err)}`));
      for (const pod of pods?.items ?? []) {
        if (signal.aborted) return;
        if (parseVMSpec(pod).vmName === "") continue; // not a cocoon pod
        await syncPod(context, pod).catch((err: unknown) => log(`${pod.metadata?.name ?? ""}: ${String(err)}`));
      }
    } while (await trigger.next());
  } finally {
    await node.stopped; // the node marked not ready
  }
}

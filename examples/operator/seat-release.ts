/**
 * Suspension: every agent pod is asked to hibernate. With `hibernatePolicy: release`, once the
 * virtual kubelet reports the main VM hibernated at the set's generation and the registry holds its
 * `<vm>:hibernate` snapshot, the seat is given up: the set remembers the node (where the virtual kubelet keeps
 * a warm copy), and `releaseSeat` flags the pod keep-snapshot-on-delete and deletes it.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchHibernateState, patchHibernatedOnNode, releaseSeat } from "@cocoonstack/cocoon-common/k8s";
import { LifecycleState, Role, Label, parseVMSpec, readHibernateState, readLifecycleStatus } from "@cocoonstack/cocoon-common/meta";
import { HibernatePolicy, type CocoonSet } from "@cocoonstack/cocoon-common/apis/v1";
import { hasHibernateSnapshot } from "@cocoonstack/cocoon-common/oci";
import type { ReconcileContext } from "./reconcile.js";

/** Whether the virtual kubelet reports the pod's VM hibernated at the set's current generation. */
function hibernatedAtGeneration(pod: V1Pod, set: CocoonSet): boolean {
  const { state, observedGeneration } = readLifecycleStatus(pod);
  return state === LifecycleState.Hibernated && String(observedGeneration) === String(set.metadata.generation ?? 0);
}

/** Asks every pod of a suspended set to hibernate, and releases the main agent's seat when the policy says so. */
export async function hibernateOrRelease(context: ReconcileContext, set: CocoonSet, pods: Map<string, V1Pod>): Promise<void> {
  const { clients, registry, log } = context;
  for (const pod of pods.values()) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (!readHibernateState(pod)) {
      await patchHibernateState(clients, pod, true);
      continue;
    }
    const main = pod.metadata?.labels?.[Label.Role] === Role.Main;
    if (!main || set.spec?.hibernatePolicy !== HibernatePolicy.Release || !hibernatedAtGeneration(pod, set)) continue;
    const vmName = parseVMSpec(pod).vmName;
    if (!(await hasHibernateSnapshot(registry, vmName))) continue; // never release a seat on a guess
    await patchHibernatedOnNode(clients, set, pod.spec?.nodeName ?? null);
    const { flagged, deletion } = await releaseSeat(clients, pod);
    log(`released the seat of ${vmName} on ${pod.spec?.nodeName ?? ""}: flagged=${flagged} deletion=${deletion}`);
  }
}

/**
 * A pod being deleted: stop its VM, keep the node's snapshot when the operator flagged the pod
 * keep-snapshot-on-delete (a released seat: the warm-wake cache), drop it otherwise, then finish
 * the deletion (grace period 0, the pod's uid as precondition, so a newer pod of the same name is
 * never deleted).
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { finishPodDeletion } from "@cocoonstack/cocoon-common/k8s";
import { parseVMSpec, readKeepSnapshotOnDelete } from "@cocoonstack/cocoon-common/meta";
import type { AgentContext } from "./agent.js";
import { removeVM } from "./fake-vm.js";
import { dropLocalSnapshot } from "./local-snapshots.js";

/** Removes the pod's VM and, unless flagged to keep it, its node-local snapshot; then deletes the pod for good. */
export async function deletePod({ clients, root, log }: AgentContext, pod: V1Pod): Promise<void> {
  const vmName = parseVMSpec(pod).vmName;
  await removeVM(root, vmName);
  const keep = readKeepSnapshotOnDelete(pod);
  if (!keep) await dropLocalSnapshot(root, vmName);
  const outcome = await finishPodDeletion(clients, pod);
  log(`deleted ${pod.metadata?.name ?? ""} (${outcome}); ${keep ? "kept" : "dropped"} the node's snapshot of ${vmName}`);
}

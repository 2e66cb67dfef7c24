/**
 * A pod being deleted: stop its VM if there is one, keep the node's snapshot when the decision says
 * so (the pod is flagged keep-snapshot-on-delete: a released seat, the warm-wake cache), drop it
 * otherwise, then finish the deletion (grace period 0, the pod's uid as precondition, so a newer
 * pod of the same name is never deleted). The example leaves out vk-cocoon's `:latest` push
 * (`saveLatest`).
 *
 * @module
 */
import type { WatchedPod } from "@cocoonstack/cocoon-common/kubelet";
import { finishPodDeletion } from "@cocoonstack/cocoon-common/kubelet";
import { parseVMSpec, type KubeletDecision } from "@cocoonstack/cocoon-common/meta";
import type { KubeletContext } from "./kubelet.js";
import { removeVM } from "./fake-vm.js";
import { dropLocalSnapshot } from "./local-snapshots.js";

/** Removes the pod's VM and, unless the decision keeps it, its node-local snapshot; then deletes the pod for good. */
export async function deletePod(
  { clients, root, writes, deleted, log }: KubeletContext,
  pod: WatchedPod,
  decision: Extract<KubeletDecision, { action: "delete" }>,
): Promise<void> {
  const vmName = parseVMSpec(pod).vmName;
  if (vmName !== "") {
    if (decision.removeVM) await removeVM(root, vmName);
    if (!decision.keepSnapshot) await dropLocalSnapshot(root, vmName);
  }
  const outcome = await finishPodDeletion(clients, pod);
  writes.forget(pod);
  deleted.add(pod.metadata.uid);
  log(`deleted ${pod.metadata.name} (${outcome}); ${decision.keepSnapshot ? "kept" : "dropped"} the node's snapshot of ${vmName}`);
}

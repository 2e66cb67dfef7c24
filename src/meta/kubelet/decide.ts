import { pathOf, propOf } from "../../internal/safe-read.js";
import { readHibernateState, readKeepSnapshotOnDelete, readRestoreFromHibernate } from "../hibernate.js";
import { LifecycleState, readLifecycleState } from "../lifecycle.js";
import { shouldSnapshotVM } from "../snapshot-policy.js";
import { roleForPod } from "../vmname.js";
import { parseVMRuntime } from "../vmruntime.js";
import { parseVMSpec, type VMSpec } from "../vmspec.js";
import { KubeletAction, type KubeletDecision, type KubeletVMFacts, type DecisionPod } from "./decide-types.js";

const none = (reason: Extract<KubeletDecision, { action: "none" }>["reason"]): KubeletDecision => ({ action: KubeletAction.None, reason });

/**
 * Returns the virtual kubelet's next step for one pod of its node, from the pod and what the virtual kubelet knows of
 * the pod's VM: vk-cocoon's `CreatePod`, `UpdatePod` and `DeletePod` (`provider/cocoon/create.go`,
 * `update.go`, `delete.go`) folded into one level-triggered decision, so a virtual kubelet that re-reads its
 * pods (after a restart, a missed event or a resync) takes the same branch vk-cocoon would. Pure
 * and total: it never throws, whatever the pod or `vm` hold (annotations are read through the typed
 * readers, so garbage reads as Go's zero values).
 *
 * In order:
 * 1. a pod being deleted is deleted: its VM removed if there is one (pushed as `:latest` first when
 *    its snapshot policy says so), the node's snapshot kept when the pod is flagged
 *    keep-snapshot-on-delete (a released seat) and dropped otherwise;
 * 2. a pod without a VM name is not a cocoon pod: nothing;
 * 3. hibernate wanted: hibernate a VM that exists; without one, the pod is hibernated (a pod the
 *    virtual kubelet never reported on is created first, as vk-cocoon's `CreatePod` does);
 * 4. a VM that exists runs: nothing (report it `ready`);
 * 5. no VM: a `failed` pod is left to the operator; a pod the virtual kubelet hibernated (`hibernated` or
 *    `hibernating`) or the operator marked restore-from-hibernate wakes from the node's kept copy,
 *    else from the registry, and fails once the registry has no `<vm>:hibernate` either; an
 *    unmanaged VM is adopted from its runtime annotations; anything else is created.
 *
 * A wake never falls back to a fresh boot: vk-cocoon reports `failed` instead (a fresh VM would
 * silently replace the user's). Step 5 is two calls when the registry must be asked: decide
 * (`wake` from `registry`), pull, and on a 404 decide again with `hibernateSnapshot: "missing"`.
 *
 * @param pod - The pod, as listed or watched.
 * @param vm - What the virtual kubelet knows of the pod's VM on this node.
 * @example
 * ```ts
 * const decision = decideKubeletAction(pod, { exists: false, keptSnapshot: true });
 * if (decision.action === "wake") log.info(`restoring ${parseVMSpec(pod).vmName} from the ${decision.from} copy`);
 * if (decision.action === "delete" && !decision.keepSnapshot) await removeLocalSnapshot(vmName);
 * ```
 */
export function decideKubeletAction(pod: DecisionPod, vm: KubeletVMFacts): KubeletDecision {
  const exists = propOf(vm, "exists") === true;
  const spec = parseVMSpec(pod);
  if (isDeleting(pod)) {
    const saveLatest = exists && spec.vmName !== "" && shouldSnapshotVM(spec, roleForPod(pod, spec.vmName));
    return { action: KubeletAction.Delete, removeVM: exists, keepSnapshot: readKeepSnapshotOnDelete(pod), saveLatest };
  }
  if (spec.vmName === "") return none("not-a-cocoon-pod");
  const state = readLifecycleState(pod);
  if (readHibernateState(pod)) {
    if (exists) return { action: KubeletAction.Hibernate };
    if (state !== "") return none("hibernated");
  } else if (exists) return none("running");
  if (state === LifecycleState.Failed) return none("failed");
  if (state === LifecycleState.Hibernated || state === LifecycleState.Hibernating) return wake(vm, spec);
  if (!spec.managed) return adopt(pod, spec);
  return readRestoreFromHibernate(pod) ? wake(vm, spec) : { action: KubeletAction.Create };
}

/** A wake: the node's copy first, then the registry, then nothing left to restore from. */
function wake(vm: KubeletVMFacts, spec: VMSpec): KubeletDecision {
  if (propOf(vm, "keptSnapshot") === true) return { action: KubeletAction.Wake, from: "kept" };
  if (propOf(vm, "hibernateSnapshot") !== "missing") return { action: KubeletAction.Wake, from: "registry" };
  return { action: KubeletAction.Fail, message: `pull hibernation snapshot ${spec.vmName}: not found on the node or in the registry` };
}

/** An unmanaged VM runs outside the virtual kubelet: adopted from its pre-assigned ID and IP, which it must have. */
function adopt(pod: DecisionPod, spec: VMSpec): KubeletDecision {
  const { vmID, ip } = parseVMRuntime(pod);
  if (vmID !== "" && ip !== "") return none("unmanaged");
  return { action: KubeletAction.Fail, message: `unmanaged vm ${spec.vmName} missing pre-assigned IP/VMID` };
}

/** Whether the pod is being deleted: a `deletionTimestamp` that is set (a `Date` or a non-empty string). */
function isDeleting(pod: DecisionPod): boolean {
  const stamp = pathOf(pod, "metadata", "deletionTimestamp");
  if (typeof stamp === "string") return stamp !== "";
  try {
    return stamp instanceof Date;
  } catch {
    return false; // a revoked proxy
  }
}

/**
 * Starting a pod's VM: `create` boots it fresh; `wake` restores it from the node's kept snapshot
 * (a pod this virtual kubelet hibernated in place, or a wake after a seat release on this node), or pulls
 * `<vm>:hibernate` from the registry. A wake never boots fresh instead: when the registry has no
 * such snapshot, the decision turns to `fail` and the pod is reported failed, as vk-cocoon does.
 *
 * @module
 */
import type { WatchedPod } from "@cocoonstack/cocoon-common/kubelet";
import { LifecycleState, VMState, decideKubeletAction, parseVMSpec } from "@cocoonstack/cocoon-common/meta";
import { isRegistryError } from "@cocoonstack/cocoon-common/oci";
import type { KubeletContext } from "./kubelet.js";
import { startVM, vmRuntime } from "./fake-vm.js";
import { dropLocalSnapshot, pullToNode, readSnapshotMemory } from "./local-snapshots.js";
import { report } from "./report.js";

const ABSENT = { state: VMState.Absent } as const;

/** Boots the pod's VM fresh, and reports it ready. */
export async function bootPod(context: KubeletContext, pod: WatchedPod): Promise<WatchedPod> {
  const vmName = parseVMSpec(pod).vmName;
  const creating = await report(context, pod, { state: LifecycleState.Creating, vm: ABSENT });
  await startVM(context.root, vmName, "boot");
  context.log(`booted ${vmName}`);
  return reportReady(context, creating);
}

/** Restores the pod's VM from the node's copy or the registry, and reports it ready (or failed: no snapshot anywhere). */
export async function wakePod(context: KubeletContext, pod: WatchedPod, from: "kept" | "registry"): Promise<WatchedPod> {
  const { root, registry, log } = context;
  const vmName = parseVMSpec(pod).vmName;
  const creating = await report(context, pod, { state: LifecycleState.Creating, vm: ABSENT });
  if (from === "registry") {
    try {
      await pullToNode(root, registry, vmName);
    } catch (err) {
      if (!isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")) throw err; // unknown: retried on the next pass
      await dropLocalSnapshot(root, vmName); // the partial pull
      const decision = decideKubeletAction(creating, { exists: false, keptSnapshot: false, hibernateSnapshot: "missing" });
      const message = decision.action === "fail" ? decision.message : `no snapshot of ${vmName}`;
      log(`cannot wake ${vmName}: ${message}`);
      return report(context, creating, { state: LifecycleState.Failed, vm: ABSENT, message });
    }
  }
  await startVM(root, vmName, from, await readSnapshotMemory(root, vmName));
  await dropLocalSnapshot(root, vmName); // restored: the running VM supersedes it
  log(`restored ${vmName} from the ${from === "kept" ? "node's kept copy" : "registry"}`);
  return reportReady(context, creating);
}

/** Reports the pod's running VM: runtime, a ready status, lifecycle `ready`. */
export function reportReady(context: KubeletContext, pod: WatchedPod): Promise<WatchedPod> {
  const runtime = vmRuntime(parseVMSpec(pod).vmName);
  return report(context, pod, { state: LifecycleState.Ready, vm: { state: VMState.Running, ip: runtime.ip, probeReady: true }, runtime });
}

/**
 * Hibernating a pod's VM (the operator set `hibernate=true`): report `hibernating`, snapshot its
 * memory to the node, push the snapshot as `<vm>:hibernate`, stop the VM, then report it
 * `hibernated` with its runtime (id, IP) cleared. The node-local copy stays: the seat release
 * decides its fate.
 *
 * @module
 */
import type { WatchedPod } from "@cocoonstack/cocoon-common/kubelet";
import { LifecycleState, VMState, parseVMSpec } from "@cocoonstack/cocoon-common/meta";
import type { KubeletContext } from "./kubelet.js";
import { readVMMemory, removeVM, vmRuntime } from "./fake-vm.js";
import { snapshotAndPush } from "./local-snapshots.js";
import { report } from "./report.js";

/** Hibernates the pod's running VM, and reports it hibernated. */
export async function hibernatePod(context: KubeletContext, pod: WatchedPod): Promise<WatchedPod> {
  const { registry, root, log } = context;
  const vmName = parseVMSpec(pod).vmName;
  const running = { state: VMState.Running, ip: vmRuntime(vmName).ip, probeReady: true } as const;
  const hibernating = await report(context, pod, { state: LifecycleState.Hibernating, vm: running });
  const digest = await snapshotAndPush(root, registry, vmName, await readVMMemory(root, vmName));
  await removeVM(root, vmName);
  log(`hibernated ${vmName}: pushed ${digest}, kept a copy on the node`);
  return reportHibernated(context, hibernating);
}

/** Reports the pod hibernated: no VM, no runtime. */
export function reportHibernated(context: KubeletContext, pod: WatchedPod): Promise<WatchedPod> {
  return report(context, pod, { state: LifecycleState.Hibernated, vm: { state: VMState.Absent }, runtime: null });
}

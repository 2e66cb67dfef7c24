/**
 * Hibernating a pod's VM (the operator set `hibernate=true`): snapshot its memory to the node,
 * push the snapshot as `<vm>:hibernate`, stop the VM, clear its runtime (id, IP) from the pod and
 * report lifecycle `hibernated`. The node-local copy stays: the seat release decides its fate.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchClearVMRuntime } from "@cocoonstack/cocoon-common/k8s";
import { LifecycleState, VMState, parseVMSpec } from "@cocoonstack/cocoon-common/meta";
import type { AgentContext } from "./agent.js";
import { isVMRunning, readVMMemory, removeVM } from "./fake-vm.js";
import { snapshotAndPush } from "./local-snapshots.js";
import { reportVM } from "./report.js";

/** Hibernates the pod's VM if it runs, and reports it hibernated. */
export async function hibernatePod({ clients, registry, root, log }: AgentContext, pod: V1Pod): Promise<V1Pod> {
  const vmName = parseVMSpec(pod).vmName;
  if (await isVMRunning(root, vmName)) {
    const digest = await snapshotAndPush(root, registry, vmName, await readVMMemory(root, vmName));
    await removeVM(root, vmName);
    log(`hibernated ${vmName}: pushed ${digest}, kept a copy on the node`);
  }
  const cleared = await patchClearVMRuntime(clients, pod);
  return reportVM(clients, cleared, LifecycleState.Hibernated, { state: VMState.Absent });
}

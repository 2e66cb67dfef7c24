/**
 * Starting a pod's VM: a pod the operator marked restore-from-hibernate (a wake after a seat
 * release), or one this agent hibernated in place, restores from the node's kept snapshot when
 * there is one, else pulls `<vm>:hibernate` from the registry; without either it boots fresh.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchAnnotations } from "@cocoonstack/cocoon-common/k8s";
import {
  LifecycleState,
  VMState,
  parseVMSpec,
  readLifecycleState,
  readRestoreFromHibernate,
  vmRuntimeAnnotations,
} from "@cocoonstack/cocoon-common/meta";
import { isRegistryError } from "@cocoonstack/cocoon-common/oci";
import type { AgentContext } from "./agent.js";
import { isVMRunning, startVM, vmRuntime } from "./fake-vm.js";
import { dropLocalSnapshot, hasLocalSnapshot, pullToNode, readSnapshotMemory } from "./local-snapshots.js";
import { reportVM } from "./report.js";

/** Restores the VM from the node's copy or the registry; `false` when there is no snapshot to restore. */
async function restoreVM({ root, registry, log }: AgentContext, vmName: string): Promise<boolean> {
  const kept = await hasLocalSnapshot(root, vmName);
  if (!kept) {
    try {
      await pullToNode(root, registry, vmName);
    } catch (err) {
      if (!isRegistryError(err, "ERR_REGISTRY_NOT_FOUND")) throw err; // unknown: never boot fresh on a guess
      await dropLocalSnapshot(root, vmName); // the partial pull
      return false;
    }
  }
  await startVM(root, vmName, kept ? "kept" : "registry", await readSnapshotMemory(root, vmName));
  await dropLocalSnapshot(root, vmName); // restored: the running VM supersedes it
  log(`restored ${vmName} from the ${kept ? "node's kept copy" : "registry"}`);
  return true;
}

/** Starts the pod's VM if it is not running, and reports it running and ready. */
export async function runPod(context: AgentContext, pod: V1Pod): Promise<V1Pod> {
  const { clients, root, log } = context;
  const vmName = parseVMSpec(pod).vmName;
  if (!(await isVMRunning(root, vmName))) {
    const restore = readRestoreFromHibernate(pod) || readLifecycleState(pod) === LifecycleState.Hibernated;
    if (!restore || !(await restoreVM(context, vmName))) {
      await startVM(root, vmName, "boot");
      log(`booted ${vmName}`);
    }
  }
  const runtime = vmRuntime(vmName);
  const annotated = await patchAnnotations(clients, pod, vmRuntimeAnnotations(runtime));
  return reportVM(clients, annotated, LifecycleState.Ready, { state: VMState.Running, ip: runtime.ip, probeReady: true });
}

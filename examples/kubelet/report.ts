/**
 * What the virtual kubelet writes back to the pod goes through `reportVM`: the runtime, then the pod status,
 * then the lifecycle status (at the set generation stamped on the pod), each only when it changed.
 * The lifecycle goes last because the operator acts on it: once it reads `hibernated` or `ready`,
 * the pod status already says so. The version each report comes back with is remembered, so the
 * loop can drop a pod read from before it (`LastWrites`).
 *
 * @module
 */
import { reportVM, type VMReport, type WatchedPod } from "@cocoonstack/cocoon-common/kubelet";
import type { KubeletContext } from "./kubelet.js";

/** Reports the VM on its pod and remembers the version written; resolves to the pod as stored. */
export async function report({ clients, writes }: KubeletContext, pod: WatchedPod, vmReport: VMReport): Promise<WatchedPod> {
  const written = (await reportVM(clients, pod, vmReport)).pod;
  writes.record(written);
  return written;
}

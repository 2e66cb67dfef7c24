// ./k8s's functions, typed for a KubeRequester only. Their declarations name no client-node type, so
// a project without client-node type-checks `./kubelet` without `skipLibCheck`; the implementations
// are ./k8s's, and the casts only say what the requester path answers: the server's JSON.
import type { KubeletPodStatus, LifecycleStatus, VMRuntime } from "../meta/index.js";
import { keepNode as keepNodeAny } from "../k8s/kubelet/keep-node.js";
import { reportVM as reportVMAny } from "../k8s/kubelet/report-vm.js";
import { patchLifecycleStatus as patchLifecycleStatusAny } from "../k8s/kubelet/lifecycle-status.js";
import { patchVMRuntime as patchVMRuntimeAny } from "../k8s/kubelet/vm-runtime.js";
import { patchClearVMRuntime as patchClearVMRuntimeAny } from "../k8s/kubelet/clear-vm-runtime.js";
import { writePodStatus as writePodStatusAny } from "../k8s/kubelet/write-pod-status.js";
import { finishPodDeletion as finishPodDeletionAny } from "../k8s/kubelet/finish-pod-deletion.js";
import { watchCocoonPods as watchCocoonPodsAny } from "../k8s/watch/cocoon-watches.js";
import type { KeepNodeOptions, KeptNode } from "../k8s/kubelet/keep-node.js";
import type { ReportPod, ReportVMOptions, VMReport } from "../k8s/kubelet/report-vm.js";
import type { FinishPodDeletionOptions, PodDeletion } from "../k8s/kubelet/finish-pod-deletion.js";
import type { StatusPod, WritePodStatusOptions } from "../k8s/kubelet/write-pod-status.js";
import type { AnnotationPatchOptions } from "../k8s/patch/annotations.js";
import type { KubeObject } from "../k8s/patch/target.js";
import type { KubeRequester } from "../k8s/request/kube-request.js";
import type { CocoonWatch } from "../k8s/watch/resource-watch.js";
import type { WatchOptions } from "../k8s/watch/watch-options.js";
import type { WatchedPod } from "../k8s/watch/watched-pod.js";

/**
 * What {@link reportVM} did: the pod as the server stored it after the last request (its JSON, of
 * the type given), or the pod given when nothing was sent; and the requests it sent, in order.
 *
 * @typeParam T - The pod's type.
 * @example
 * ```ts
 * const { pod: written, sent }: VMReported<WatchedPod> = await reportVM(requester, watched, { state: LifecycleState.Ready, vm: { state: VMState.Running, ip: "10.88.0.7", probeReady: true } });
 * console.log(written.metadata.name, sent.length === 0 ? "unchanged" : `sent ${sent.join(", ")}`);
 * ```
 */
export interface VMReported<T extends ReportPod> {
  /** The server's copy after the last request, or the pod given when nothing was sent. */
  readonly pod: T;
  /** The parts written, in the order sent: `runtime`, `status`, `lifecycle`; empty when nothing changed. */
  readonly sent: readonly ("runtime" | "status" | "lifecycle")[];
}

/**
 * Keeps the virtual kubelet's node, as `./k8s`'s `keepNode` does, over `requester`.
 *
 * @example
 * ```ts
 * const kept = await keepNode(requester, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
 * console.log(kept.node.metadata?.uid); // the Node as stored
 * ```
 */
export const keepNode = keepNodeAny as (requester: KubeRequester, options: KeepNodeOptions) => Promise<KeptNode>;

/**
 * Reports a VM on its pod, as `./k8s`'s `reportVM` does: runtime, then pod status, then lifecycle.
 *
 * @example
 * ```ts
 * const vm = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
 * const { pod: written } = await reportVM(requester, watched, { state: LifecycleState.Ready, vm, runtime: { ip: "10.88.0.7" } });
 * ```
 */
export const reportVM = reportVMAny as <T extends ReportPod>(
  requester: KubeRequester,
  pod: T,
  report: VMReport,
  options?: ReportVMOptions,
) => Promise<VMReported<T>>;

/**
 * Writes the pod's lifecycle status, as `./k8s`'s `patchLifecycleStatus` does.
 *
 * @example
 * ```ts
 * const status = { state: LifecycleState.Hibernated, observedGeneration: readCocoonSetGeneration(watched), message: "" };
 * const written: WatchedPod = await patchLifecycleStatus(requester, watched, status);
 * ```
 */
export const patchLifecycleStatus = patchLifecycleStatusAny as <T extends KubeObject>(
  requester: KubeRequester,
  pod: T,
  status: LifecycleStatus,
  options?: AnnotationPatchOptions,
) => Promise<T>;

/**
 * Writes the VM's runtime annotations on its pod, as `./k8s`'s `patchVMRuntime` does.
 *
 * @example
 * ```ts
 * const written: WatchedPod = await patchVMRuntime(requester, watched, { vmID: "vm-1", ip: "10.88.0.7" });
 * ```
 */
export const patchVMRuntime = patchVMRuntimeAny as <T extends KubeObject>(
  requester: KubeRequester,
  pod: T,
  runtime: Partial<VMRuntime>,
  options?: AnnotationPatchOptions,
) => Promise<T>;

/**
 * Removes the VM's runtime annotations from its pod, as `./k8s`'s `patchClearVMRuntime` does.
 *
 * @example
 * ```ts
 * const written: WatchedPod = await patchClearVMRuntime(requester, watched);
 * ```
 */
export const patchClearVMRuntime = patchClearVMRuntimeAny as <T extends KubeObject>(
  requester: KubeRequester,
  pod: T,
  options?: AnnotationPatchOptions,
) => Promise<T>;

/**
 * Writes a VM's pod status through the pods/status subresource, as `./k8s`'s `writePodStatus` does.
 *
 * @example
 * ```ts
 * const status = podStatusForVM(watched, { state: VMState.Absent }, { now: new Date() });
 * const written: WatchedPod = await writePodStatus(requester, watched, status);
 * ```
 */
export const writePodStatus = writePodStatusAny as <T extends StatusPod>(
  requester: KubeRequester,
  pod: T,
  status: KubeletPodStatus,
  options?: WritePodStatusOptions,
) => Promise<T>;

/**
 * Deletes a pod whose VM is gone, as `./k8s`'s `finishPodDeletion` does.
 *
 * @example
 * ```ts
 * const outcome: PodDeletion = await finishPodDeletion(requester, watched); // "deleted", "already-gone" or "uid-mismatch"
 * ```
 */
export const finishPodDeletion = finishPodDeletionAny as (
  requester: KubeRequester,
  pod: KubeObject,
  options?: FinishPodDeletionOptions,
) => Promise<PodDeletion>;

/**
 * Watches cocoon pods, as `./k8s`'s `watchCocoonPods` does.
 *
 * @example
 * ```ts
 * for await (const event of watchCocoonPods(requester, { fieldSelector: "spec.nodeName=cocoon-a", signal })) {
 *   if (event.type === "deleted") console.log("release", event.object.metadata.name);
 * }
 * ```
 */
export const watchCocoonPods = watchCocoonPodsAny as (requester: KubeRequester, options?: WatchOptions) => CocoonWatch<WatchedPod>;

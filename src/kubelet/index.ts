/**
 * The virtual kubelet's path to the API server without `@kubernetes/client-node` (and without zod at
 * load): keeping the node and its Lease, the VM's writes on its pod, finishing a pod's deletion and
 * the typed watch of the node's pods, each over one small {@link KubeRequester} on `node:https`.
 * Build the requester from the pod's service account ({@link inClusterRequester}) or a kubeconfig
 * file with a client certificate or a token ({@link kubeconfigRequester}; `yaml` only for a file beyond what kubectl writes).
 *
 * These are the functions `./k8s` exports under the same names, typed for a requester only, so their
 * declarations name no client-node type: a project without client-node type-checks them strictly,
 * without `skipLibCheck`. `./k8s` also takes client-node's clients, and builds a requester from a
 * client-node `KubeConfig` (`kubeConfigRequester`).
 *
 * @module
 */
export { CocoonError, isCocoonError } from "../errors.js";
export type { CocoonErrorCode } from "../errors.js";
export type { KubeRequest, KubeRequester, KubeResponse } from "../k8s/request/kube-request.js";
export { KubeStatusError } from "../k8s/request/kube-status-error.js";
export { inClusterRequester } from "../k8s/request/in-cluster.js";
export type { InClusterOptions } from "../k8s/request/in-cluster.js";
export { kubeconfigRequester } from "../k8s/request/kubeconfig-file.js";
export type { KubeconfigRequesterOptions } from "../k8s/request/kubeconfig-file.js";
export { NODE_HEARTBEAT } from "../k8s/kubelet/keep-node.js";
export {
  finishPodDeletion,
  keepNode,
  patchClearVMRuntime,
  patchLifecycleStatus,
  patchVMRuntime,
  reportVM,
  watchCocoonPods,
  writePodStatus,
} from "./functions.js";
export type { VMReported } from "./functions.js";
export type { KeepNodeOptions, KeptNode } from "../k8s/kubelet/keep-node.js";
export { NODE_LEASE_NAMESPACE } from "../k8s/kubelet/lease-namespace.js";
export type { ReportPod, ReportVMOptions, VMReport } from "../k8s/kubelet/report-vm.js";
export type { StatusPod, WritePodStatusOptions } from "../k8s/kubelet/write-pod-status.js";
export { PodDeletion } from "../k8s/kubelet/finish-pod-deletion.js";
export type { FinishPodDeletionOptions } from "../k8s/kubelet/finish-pod-deletion.js";
export type { CocoonWatch } from "../k8s/watch/resource-watch.js";
export type { WatchChange, WatchEvent } from "../k8s/watch/watch-event.js";
export type { WatchOptions } from "../k8s/watch/watch-options.js";
export type { WatchedPod } from "../k8s/watch/watched-pod.js";
export type { AnnotationPatchOptions } from "../k8s/patch/annotations.js";
export type { KubeObject } from "../k8s/patch/target.js";
export type { Logger } from "../k8s/logger.js";
export {
  isAlreadyExists,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
  statusCode,
  statusMessage,
  statusReason,
} from "../k8s/api-errors.js";

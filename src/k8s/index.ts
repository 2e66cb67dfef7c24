/**
 * The Kubernetes side of the contract, on `@kubernetes/client-node`: clients that reuse
 * connections, typed clients and typed watches of CocoonSets, CocoonHibernations and cocoon pods,
 * annotation and diff patches with Go's short-circuits, the seat release, the virtual kubelet's writes
 * (writing and clearing a VM's runtime, finishing a pod's deletion, a VM's pod status, keeping the
 * node with its Lease), CRD install, error
 * inspection, kubeconfig loading, status conditions, env and time helpers, node IP detection and an
 * admission webhook handler for `node:http`.
 *
 * Every helper takes client-node API clients structurally: {@link createClients}'s keep-alive
 * clients, or `{ core: kc.makeApiClient(CoreV1Api), customObjects: kc.makeApiClient(CustomObjectsApi) }`.
 *
 * @module
 */
export { CocoonError, isCocoonError } from "../errors.js";
export type { CocoonErrorCode } from "../errors.js";
export { createClients } from "./clients.js";
export type { CocoonClients, CreateClientsOptions } from "./clients.js";
export { cocoonHibernationClient, cocoonSetClient } from "./resources/cocoon-clients.js";
export type { CocoonHibernationClient, CocoonSetClient } from "./resources/cocoon-clients.js";
export type { CocoonResourceClient, ResourceClients } from "./resources/resource-client.js";
export type {
  CallOptions,
  DeleteOptions,
  JSONPatchOperation,
  ListOptions,
  ObjectRef,
  ResourcePatch,
} from "./resources/resource-options.js";
export { UnexpectedObjectError, isUnexpectedObjectError } from "./resources/unexpected-object-error.js";
export { watchCocoonHibernations, watchCocoonPods, watchCocoonSets } from "./watch/cocoon-watches.js";
export type { CocoonWatch, WatchClients } from "./watch/resource-watch.js";
export type { WatchChange, WatchEvent } from "./watch/watch-event.js";
export type { WatchOptions } from "./watch/watch-options.js";
export { DEFAULT_MAX_EVENT_BYTES } from "./watch/watch-options.js";
export type { WatchedPod } from "./watch/watched-pod.js";
export { keepAliveAuthentication } from "./transport/index.js";
export type { KeepAliveAuthentication, KeepAliveOptions } from "./transport/index.js";
export { patchAnnotations } from "./patch/annotations.js";
export type { AnnotationPatchOptions } from "./patch/annotations.js";
export { patchCocoonSetGeneration, patchHibernateState, patchHibernatedOnNode, patchKeepSnapshotOnDelete } from "./patch/contracts.js";
export type { CocoonSetPatchClients, PodPatchClients } from "./patch/contracts.js";
export { patch, patchStatus } from "./patch/clientpatch.js";
export type { Mutation, PatchOptions } from "./patch/clientpatch.js";
export type { AnnotationClients, KubeObject, PatchClients } from "./patch/target.js";
export type { Patched } from "./patch/patched.js";
export { releaseSeat } from "./release-seat.js";
export { patchClearVMRuntime } from "./kubelet/clear-vm-runtime.js";
export { patchVMRuntime } from "./kubelet/vm-runtime.js";
export { patchLifecycleStatus } from "./kubelet/lifecycle-status.js";
export { reportVM } from "./kubelet/report-vm.js";
export type { ReportPod, ReportVMClients, ReportVMOptions, VMReport, VMReported } from "./kubelet/report-vm.js";
export { PodDeletion, finishPodDeletion } from "./kubelet/finish-pod-deletion.js";
export type { FinishPodDeletionClients, FinishPodDeletionOptions } from "./kubelet/finish-pod-deletion.js";
export { writePodStatus } from "./kubelet/write-pod-status.js";
export { NODE_HEARTBEAT, keepNode } from "./kubelet/keep-node.js";
export type { KeepNodeClients, KeepNodeOptions, KeptNode } from "./kubelet/keep-node.js";
export { NODE_LEASE_NAMESPACE } from "./kubelet/node-lease.js";
export type { PodStatusClients, StatusPod, WritePodStatusOptions } from "./kubelet/write-pod-status.js";
export type { ReleaseSeatClients, ReleaseSeatOptions, ReleaseSeatResult } from "./release-seat.js";
export type { Logger } from "./logger.js";
export { installCRDs } from "./install-crds.js";
export type { InstallCRDsClients, InstallCRDsOptions } from "./install-crds.js";
export { isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound, statusCode, statusMessage, statusReason } from "./api-errors.js";
export { loadKubeConfig } from "./load-kube-config.js";
export type { KubeRequest, KubeRequester, KubeResponse } from "./request/kube-request.js";
export { KubeStatusError } from "./request/kube-status-error.js";
export { kubeConfigRequester } from "./request/kube-config-requester.js";
export { inClusterRequester } from "./request/in-cluster.js";
export type { InClusterOptions } from "./request/in-cluster.js";
export { kubeconfigRequester } from "./request/kubeconfig-file.js";
export type { KubeconfigRequesterOptions } from "./request/kubeconfig-file.js";
export type { Env, LoadKubeConfigOptions } from "./load-kube-config.js";
export { ConditionStatus } from "../apis/v1/condition-status.js";
export {
  CONDITION_TYPE_READY,
  findStatusCondition,
  formatConditionTime,
  isStatusConditionTrue,
  newReadyCondition,
  setStatusCondition,
} from "./conditions.js";
export type { StatusCondition } from "./conditions.js";
export { NoNodeIPError, detectNodeIP } from "./node-ip.js";
export type { NetworkInterfaceMap } from "./node-ip.js";
export { DEFAULT_MAX_BODY, allow, deny } from "./admission/response.js";
export { decodeAdmissionReview } from "./admission/decode.js";
export { admissionHandler } from "./admission/handler.js";
export type { AdmissionHandlerFunc, AdmissionHandlerOptions, AdmissionResult } from "./admission/handler.js";
export type {
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  AdmissionStatus,
  AdmissionUserInfo,
  GroupVersionKind,
  GroupVersionResource,
} from "./admission/types.js";

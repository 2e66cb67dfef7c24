/**
 * The cocoon contract without dependencies: every label and annotation key, the typed annotation
 * contracts (each a pure function returning an {@link AnnotationDelta}), VM naming, role inference,
 * snapshot policy and pod-state helpers. Loads nothing at run time, so a virtual kubelet that only needs a
 * key pays for nothing else.
 *
 * @module
 */
export { CocoonError, isCocoonError } from "../errors.js";
export type { CocoonErrorCode } from "../errors.js";
export { Annotation, DEFAULT_NODE_POOL, HOSTNAME_LABEL, KIND_COCOONSET, Label, Role, SnapshotTag, TOLERATION_KEY } from "./keys.js";
export { annotationsMergePatch, annotationsSatisfied, applyAnnotations } from "./annotations.js";
export type { Annotated, AnnotationDelta, AnnotationsMergePatch } from "./annotations.js";
export {
  applyHibernateState,
  hibernateStateAnnotations,
  keepSnapshotOnDeleteAnnotations,
  markKeepSnapshotOnDelete,
  markRestoreFromHibernate,
  readHibernateState,
  readKeepSnapshotOnDelete,
  readRestoreFromHibernate,
  restoreFromHibernateAnnotations,
} from "./hibernate.js";
export { cocoonSetGenerationAnnotations, readCocoonSetGeneration, stampCocoonSetGeneration } from "./generation.js";
export type { Int64 } from "./generation.js";
export {
  LifecycleState,
  applyLifecycleStatus,
  isTerminalLifecycleState,
  lifecycleStatusAnnotations,
  lifecycleStatusKey,
  readLifecycleObservedGeneration,
  readLifecycleState,
  readLifecycleStatus,
} from "./lifecycle.js";
export type { LifecycleStatus } from "./lifecycle.js";
export { clearHibernatedOnNode, hibernatedOnNodeAnnotations, readHibernatedOnNode, stashHibernatedOnNode } from "./hibernated-on-node.js";
export { applyVMSpec, parseVMSpec, vmSpecAnnotations } from "./vmspec.js";
export type { VMSpec } from "./vmspec.js";
export { applyVMRuntime, clearVMRuntime, clearVMRuntimeAnnotations, parseVMRuntime, vmRuntimeAnnotations } from "./vmruntime.js";
export type { VMRuntime } from "./vmruntime.js";
export { fromAgentSpec, fromToolboxSpec } from "./from-spec.js";
export type { AgentSpecLike, ToolboxSpecLike, VMOptionsLike } from "./from-spec.js";
export type { Loose } from "./loose.js";
export { shouldSnapshotVM } from "./snapshot-policy.js";
export { agentVMNamePrefix, extractAgentSlot, inferRoleFromAgentSlot, roleForPod, vmNameForDeployment, vmNameForPod } from "./vmname.js";
export { cocoonSetOwnerName, hasCocoonTolerationKey, isOwnedByCocoonSet } from "./owner.js";
export { isContainerRunning, isPodReady, isPodTerminal, podKey, podNodePool } from "./pod.js";
export type { OwnerReferenceLike, PodLike, TolerationLike } from "./objects.js";
export { connectionType } from "./connection.js";
export { preferredHostnameAffinity, requiredHostnameAffinity } from "./affinity.js";
export type { HostnameSelectorTerm, PreferredHostnameAffinity, RequiredHostnameAffinity } from "./affinity.js";
export { annotationsMergePatchJSON } from "./annotations-patch-json.js";
export { QUANTITY_PATTERN, QuantityFormat, isQuantity, parseQuantity, quantityString } from "./quantity.js";
export type { ParsedQuantity } from "./quantity.js";
export { buildAgentPod, buildMainPod, buildSubAgentPod } from "./pods/agent-pod.js";
export { buildToolboxPod, toolboxPodName } from "./pods/toolbox-pod.js";
export { buildWakePod } from "./pods/wake-pod.js";
export { AGENT_CONTAINER_NAME, PLACEHOLDER_IMAGE, newManagedPod } from "./pods/managed-pod.js";
export { applyStorageRequest } from "./pods/storage-request.js";
export { podSpecMatchesAgent, podSpecMatchesToolbox } from "./pods/drift.js";
export type { LivePodLike } from "./pods/drift.js";
export { marshalPodGoJSON } from "./pods/pod-go-json.js";
export type {
  CocoonPod,
  CocoonSetLike,
  CocoonSetSpecLike,
  EnvFromLike,
  PodEnvFrom,
  PodResources,
  PodToleration,
  ResourcesLike,
  ToolboxLike,
} from "./pods/types.js";
export { VMState, podStatusForVM } from "./kubelet/pod-status.js";
export type { PodStatusOptions, VMObservation } from "./kubelet/pod-status.js";
export type {
  KubeletContainerStatus,
  KubeletPodCondition,
  KubeletPodStatus,
  KubeTime,
  PodConditionSource,
  PodStatusSource,
} from "./kubelet/pod-status-types.js";
export { DEFAULT_KUBELET_PORT, NODE_ROLE_LABEL, PROVIDER_TAINT, buildVirtualNode } from "./kubelet/node.js";
export type { VirtualNodeOptions } from "./kubelet/node.js";
export type { VirtualNode, VirtualNodeCondition } from "./kubelet/node-types.js";
export { DEFAULT_MAX_PODS, DEFAULT_RESERVE_PERCENT, nodeResources } from "./kubelet/node-resources.js";
export type { NodeResources, NodeResourcesInput } from "./kubelet/node-resources.js";
export { decideKubeletAction } from "./kubelet/decide.js";
export { KubeletAction } from "./kubelet/decide-types.js";
export type { KubeletDecision, KubeletVMFacts, DecisionPod, NoneReason } from "./kubelet/decide-types.js";
export { LastWrites, compareResourceVersions } from "./kubelet/last-writes.js";
export type { VersionedPod } from "./kubelet/last-writes.js";

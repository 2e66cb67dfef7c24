/**
 * The cocoon contract without dependencies: every label and annotation key, the typed annotation
 * contracts (each a pure function returning an {@link AnnotationDelta}), VM naming, role inference,
 * snapshot policy and pod-state helpers. Loads nothing at run time, so an agent that only needs a
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
export { applyVMRuntime, parseVMRuntime, vmRuntimeAnnotations } from "./vmruntime.js";
export type { VMRuntime } from "./vmruntime.js";
export { fromAgentSpec, fromToolboxSpec } from "./from-spec.js";
export type { AgentSpecLike, ToolboxSpecLike, VMOptionsLike } from "./from-spec.js";
export { shouldSnapshotVM } from "./snapshot-policy.js";
export { agentVMNamePrefix, extractAgentSlot, inferRoleFromAgentSlot, roleForPod, vmNameForDeployment, vmNameForPod } from "./vmname.js";
export { cocoonSetOwnerName, hasCocoonTolerationKey, isOwnedByCocoonSet } from "./owner.js";
export { isContainerRunning, isPodReady, isPodTerminal, podKey, podNodePool } from "./pod.js";
export type { OwnerReferenceLike, PodLike, TolerationLike } from "./objects.js";
export { connectionType } from "./connection.js";
export { preferredHostnameAffinity, requiredHostnameAffinity } from "./affinity.js";
export type { HostnameSelectorTerm, PreferredHostnameAffinity, RequiredHostnameAffinity } from "./affinity.js";
export { annotationsMergePatchJSON, goJSONString, marshalGoJSON } from "./go-json.js";
export { QUANTITY_PATTERN, QuantityFormat, isQuantity, parseQuantity, quantityString } from "./quantity.js";
export type { ParsedQuantity } from "./quantity.js";

/**
 * The `cocoonset.cocoonstack.io/v1` API: group, version and kinds; the enums with their guards and
 * Go-style defaults; zod schemas for CocoonSet and CocoonHibernation that parse the way the
 * apiserver validates (defaults, enums, bounds, patterns, CEL rules, pruning); the update-only
 * transition checks; the CustomResourceDefinitions generated from those schemas; and the
 * least-privilege ClusterRoles of the operator and of the virtual kubelet.
 *
 * Hostile input: `safeParse` of every schema returns a failure, never throws, for any data (cyclic,
 * nested 10,000 levels, names of megabytes, `bigint`s, symbols); only an exception that the input
 * itself raises (a getter or a proxy trap) propagates unchanged, as it does from `JSON.stringify`.
 * The guards (`is...`), the `...OrDefault` helpers and the update validators never throw at all.
 *
 * @example
 * ```ts
 * import { CocoonSetSchema, validateCocoonSetUpdate } from "@cocoonstack/cocoon-common/apis/v1";
 *
 * const next = CocoonSetSchema.parse(raw);
 * const verdict = validateCocoonSetUpdate(current, next);
 * ```
 *
 * @module
 */

export { API_VERSION, GROUP, Kind, Plural, VERSION, isCocoonHibernation, isCocoonSet } from "./groupversion-info.js";
export type { TypeMeta } from "./groupversion-info.js";

export {
  AgentMode,
  Backend,
  CocoonHibernationPhase,
  CocoonSetPhase,
  ConnType,
  HibernatePolicy,
  HibernationDesire,
  OSType,
  SnapshotPolicy,
  ToolboxMode,
} from "./enums.js";
export {
  AgentModeSchema,
  BackendSchema,
  CocoonHibernationPhaseSchema,
  CocoonSetPhaseSchema,
  ConnTypeSchema,
  HibernatePolicySchema,
  HibernationDesireSchema,
  OSTypeSchema,
  SnapshotPolicySchema,
  ToolboxModeSchema,
} from "./enum-schemas.js";
export {
  agentModeOrDefault,
  backendOrDefault,
  hibernatePolicyOrDefault,
  isAgentMode,
  isBackend,
  isCocoonHibernationPhase,
  isCocoonSetPhase,
  isConnType,
  isHibernatePolicy,
  isHibernationDesire,
  isOSType,
  isSnapshotPolicy,
  isToolboxMode,
  osTypeOrDefault,
  snapshotPolicyOrDefault,
  toolboxModeOrDefault,
} from "./enum-guards.js";

export { ListMetaSchema, ObjectMetaSchema } from "./object-meta.js";
export type { ListMeta, ListMetaInput, ObjectMeta, ObjectMetaInput } from "./object-meta.js";
export { QuantitySchema, ResourceClaimSchema, ResourceRequirementsSchema } from "./resources.js";
export type {
  Quantity,
  QuantityInput,
  ResourceClaim,
  ResourceClaimInput,
  ResourceRequirements,
  ResourceRequirementsInput,
} from "./resources.js";
export { ConfigMapEnvSourceSchema, EnvFromSourceSchema, SecretEnvSourceSchema } from "./env-from.js";
export type {
  ConfigMapEnvSource,
  ConfigMapEnvSourceInput,
  EnvFromSource,
  EnvFromSourceInput,
  SecretEnvSource,
  SecretEnvSourceInput,
} from "./env-from.js";
export { ConditionSchema } from "./condition.js";
export { ConditionStatus } from "./condition-status.js";
export type { Condition, ConditionInput } from "./condition.js";

export { VMOptionsSchema } from "./vm-options.js";
export type { VMOptions, VMOptionsInput } from "./vm-options.js";
export { AgentSpecSchema, CocoonSetSpecSchema, ToolboxSpecSchema } from "./cocoonset-spec.js";
export type { AgentSpec, AgentSpecInput, CocoonSetSpec, CocoonSetSpecInput, ToolboxSpec, ToolboxSpecInput } from "./cocoonset-spec.js";
export { AgentStatusSchema, CocoonSetStatusSchema, ToolboxStatusSchema } from "./cocoonset-status.js";
export type {
  AgentStatus,
  AgentStatusInput,
  CocoonSetStatus,
  CocoonSetStatusInput,
  ToolboxStatus,
  ToolboxStatusInput,
} from "./cocoonset-status.js";
export { CocoonSetListSchema, CocoonSetSchema } from "./cocoonset-types.js";
export type { CocoonSet, CocoonSetInput, CocoonSetList, CocoonSetListInput } from "./cocoonset-types.js";
export {
  CocoonHibernationListSchema,
  CocoonHibernationSchema,
  CocoonHibernationSpecSchema,
  CocoonHibernationStatusSchema,
  HibernationPodRefSchema,
} from "./cocoonhibernation-types.js";
export type {
  CocoonHibernation,
  CocoonHibernationInput,
  CocoonHibernationList,
  CocoonHibernationListInput,
  CocoonHibernationSpec,
  CocoonHibernationSpecInput,
  CocoonHibernationStatus,
  CocoonHibernationStatusInput,
  HibernationPodRef,
  HibernationPodRefInput,
} from "./cocoonhibernation-types.js";

export { validateCocoonHibernationUpdate, validateCocoonSetUpdate } from "./transition-rules.js";
export type { CocoonHibernationUpdateView, CocoonSetUpdateView, ValidationIssue, ValidationResult } from "./transition-rules.js";

export { cocoonHibernationCRD, cocoonSetCRD } from "./crd.js";
export type { CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps, PrinterColumn } from "./crd-types.js";

export { cocoonKubeletClusterRole, cocoonOperatorClusterRole } from "./rbac.js";
export { RBAC_API_VERSION } from "./rbac-types.js";
export type { ClusterRole, PolicyRule } from "./rbac-types.js";

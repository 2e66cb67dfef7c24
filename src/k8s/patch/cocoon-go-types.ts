// The Go types client.MergeFrom marshals for the two CRDs: cocoon-common v0.3.0's apis/v1 structs
// with the k8s.io/api and apimachinery types they embed, field for field with json names and
// omitempty (go-contract.md §1.3). A declarative table: the conformance suite checks it against
// the Go structs themselves (conformance/go/cocoontypes.go).
import { Kind } from "../../apis/v1/groupversion-info.js";
import { OBJECT_META_FIELDS, type ObjectMetaField } from "../../apis/v1/object-meta-fields.js";
import {
  BOOL,
  ENV_FROM_SOURCE,
  INT32,
  INT64,
  OWNER_REFERENCE,
  QUANTITY,
  RESOURCE_REQUIREMENTS,
  RAW,
  STRING,
  TIME,
  TYPE_META,
  always,
  map,
  oe,
  ptr,
  slice,
  struct,
  type GoType,
} from "../../internal/go/index.js";

const managedFieldsEntry = struct(
  oe("manager", STRING),
  oe("operation", STRING),
  oe("apiVersion", STRING),
  oe("time", ptr(TIME)),
  oe("fieldsType", STRING),
  oe("fieldsV1", ptr(RAW)),
  oe("subresource", STRING),
);

/** The Go type of each metav1.ObjectMeta field (every one omitempty). */
const objectMetaTypes: Record<ObjectMetaField, GoType> = {
  name: STRING,
  generateName: STRING,
  namespace: STRING,
  selfLink: STRING,
  uid: STRING,
  resourceVersion: STRING,
  generation: INT64,
  creationTimestamp: TIME,
  deletionTimestamp: ptr(TIME),
  deletionGracePeriodSeconds: ptr(INT64),
  labels: map(STRING),
  annotations: map(STRING),
  ownerReferences: slice(OWNER_REFERENCE),
  finalizers: slice(STRING),
  managedFields: slice(managedFieldsEntry),
};

/** metav1.ObjectMeta, its fields in Go's order. */
const objectMeta = struct(...OBJECT_META_FIELDS.map((name) => oe(name, objectMetaTypes[name])));

/** metav1.Condition. */
const condition = struct(
  always("type", STRING),
  always("status", STRING),
  oe("observedGeneration", INT64),
  always("lastTransitionTime", TIME),
  always("reason", STRING),
  always("message", STRING),
);

/** cocoonv1.VMOptions, inlined into AgentSpec and ToolboxSpec. */
const vmOptions = [
  ...["os", "backend", "connType", "network"].map((name) => oe(name, STRING)),
  oe("forcePull", BOOL),
  oe("noDirectIO", BOOL),
  oe("probePort", INT32),
  oe("storage", ptr(QUANTITY)),
  oe("resources", RESOURCE_REQUIREMENTS),
];

const agentSpec = struct(
  oe("replicas", INT32),
  always("image", STRING),
  oe("mode", STRING),
  ...vmOptions,
  oe("envFrom", slice(ENV_FROM_SOURCE)),
  oe("serviceAccountName", STRING),
);

const toolboxSpec = struct(
  always("name", STRING),
  ...["image", "mode", "staticIP", "staticVMID"].map((name) => oe(name, STRING)),
  oe("vncPort", INT32),
  ...vmOptions,
);

const cocoonSetSpec = struct(
  oe("suspend", BOOL),
  ...["snapshotPolicy", "hibernatePolicy", "nodePool", "snapshotCompatibilityClass", "nodeName"].map((name) => oe(name, STRING)),
  always("agent", agentSpec),
  oe("toolboxes", slice(toolboxSpec)),
);

const agentStatus = struct(
  always("slot", INT32),
  always("role", STRING),
  ...["podName", "vmName", "vmID", "ip", "phase", "forkedFrom"].map((name) => oe(name, STRING)),
);

const toolboxStatus = struct(
  always("name", STRING),
  ...["podName", "vmName", "vmID", "ip", "phase", "connType"].map((name) => oe(name, STRING)),
  oe("vncPort", INT32),
);

const cocoonSetStatus = struct(
  oe("observedGeneration", INT64),
  oe("phase", STRING),
  ...["readyAgents", "desiredAgents", "readyToolboxes", "desiredToolboxes"].map((name) => always(name, INT32)),
  oe("agents", slice(agentStatus)),
  oe("toolboxes", slice(toolboxStatus)),
  oe("conditions", slice(condition)),
);

const cocoonHibernationSpec = struct(always("podRef", struct(always("name", STRING))), always("desire", STRING));

const cocoonHibernationStatus = struct(
  oe("observedGeneration", INT64),
  oe("phase", STRING),
  oe("vmName", STRING),
  oe("conditions", slice(condition)),
);

/**
 * The Go struct of each cocoon kind, as controller-runtime marshals it.
 *
 * @internal
 */
export const COCOON_GO_TYPES: Readonly<Record<typeof Kind.CocoonSet | typeof Kind.CocoonHibernation, GoType>> = {
  [Kind.CocoonSet]: struct(...TYPE_META, oe("metadata", objectMeta), oe("spec", cocoonSetSpec), oe("status", cocoonSetStatus)),
  [Kind.CocoonHibernation]: struct(
    ...TYPE_META,
    oe("metadata", objectMeta),
    oe("spec", cocoonHibernationSpec),
    oe("status", cocoonHibernationStatus),
  ),
};

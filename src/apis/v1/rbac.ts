import { GROUP, Plural } from "./groupversion-info.js";
import { RBAC_API_VERSION, type ClusterRole, type PolicyRule } from "./rbac-types.js";

const CORE = "";
const COORDINATION = "coordination.k8s.io";

function clusterRole(name: string, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: RBAC_API_VERSION, kind: "ClusterRole", metadata: { name, labels: { "app.kubernetes.io/name": name } }, rules };
}

/**
 * The least-privilege `ClusterRole` of the operator (`cocoon-operator`): exactly what
 * `examples/operator` and the helpers it calls send. It watches and lists CocoonSets and merge-patches
 * their annotations (the hibernated-on-node hint); it watches, lists, creates, annotates and deletes
 * the cocoon pods. Shipped as `rbac/cocoon-operator.clusterrole.yaml` and printed by
 * `cocoon-common rbac`.
 *
 * Narrower than the Go operator's role: no CocoonHibernations, no status or finalizer writes, no
 * `get` or `update` (every read is a list or watch, every write a patch), no ConfigMaps or Leases
 * (no leader election), no Events. A binding in one namespace (a `RoleBinding` to this
 * ClusterRole) is enough for an operator of one namespace.
 *
 * @example
 * ```ts
 * // kubectl create clusterrolebinding cocoon-operator --clusterrole=cocoon-operator --serviceaccount=cocoon-system:cocoon-operator
 * const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
 * await rbac.createClusterRole({ body: cocoonOperatorClusterRole });
 * ```
 */
export const cocoonOperatorClusterRole: ClusterRole = /* @__PURE__ */ clusterRole("cocoon-operator", [
  { apiGroups: [GROUP], resources: [Plural.CocoonSet], verbs: ["list", "watch", "patch"] },
  { apiGroups: [CORE], resources: ["pods"], verbs: ["list", "watch", "create", "patch", "delete"] },
]);

/**
 * The least-privilege `ClusterRole` of a virtual kubelet (`cocoon-kubelet`):
 * exactly what `examples/kubelet` and the helpers it calls send. It keeps its node with `keepNode`
 * (create; read and replace to adopt a node already there; merge-patch its status); watches and lists the pods bound to it (every namespace, by
 * `spec.nodeName`), annotates them, merge-patches their status and finishes their deletion; and
 * keeps its node's Lease in `kube-node-lease` (get, create, update), as a kubelet does.
 *
 * Kubernetes' `system:node` role and the Node authorizer limit a kubelet to its own node and pods;
 * RBAC cannot (the node's name is not known here), so bind this role to the virtual kubelets' own
 * service accounts only. The role reads no CocoonSet, Secret or ConfigMap.
 *
 * @example
 * ```ts
 * // kubectl create clusterrolebinding cocoon-kubelet --clusterrole=cocoon-kubelet --serviceaccount=cocoon-system:cocoon-kubelet
 * const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
 * await rbac.createClusterRole({ body: cocoonKubeletClusterRole });
 * ```
 */
export const cocoonKubeletClusterRole: ClusterRole = /* @__PURE__ */ clusterRole("cocoon-kubelet", [
  { apiGroups: [CORE], resources: ["nodes"], verbs: ["get", "create", "update"] },
  { apiGroups: [CORE], resources: ["nodes/status"], verbs: ["patch"] },
  { apiGroups: [CORE], resources: ["pods"], verbs: ["list", "watch", "patch", "delete"] },
  { apiGroups: [CORE], resources: ["pods/status"], verbs: ["patch"] },
  { apiGroups: [COORDINATION], resources: ["leases"], verbs: ["get", "create", "update"] },
]);

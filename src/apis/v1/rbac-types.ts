/** The API version of the RBAC objects this package generates. */
export const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";

/**
 * One rule of a role (`rbac.authorization.k8s.io/v1` `PolicyRule`), resource rules only: the
 * roles here grant no non-resource URL.
 *
 * @example
 * ```ts
 * const rule: PolicyRule = { apiGroups: [""], resources: ["pods/status"], verbs: ["patch"] };
 * ```
 */
export interface PolicyRule {
  /** API groups; `""` is the core group. */
  apiGroups: string[];
  /** Resources, `resource/subresource` for a subresource. */
  resources: string[];
  /** Verbs as the authorizer sees them: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`. */
  verbs: string[];
  /** The only object names the rule covers; absent for every name. */
  resourceNames?: string[];
}

/**
 * A `ClusterRole`, with only the fields this package writes.
 *
 * @example
 * ```ts
 * const role: ClusterRole = { apiVersion: RBAC_API_VERSION, kind: "ClusterRole", metadata: { name: "reader" }, rules: [] };
 * ```
 */
export interface ClusterRole {
  apiVersion: typeof RBAC_API_VERSION;
  kind: "ClusterRole";
  metadata: { name: string; labels?: Record<string, string> };
  rules: PolicyRule[];
}

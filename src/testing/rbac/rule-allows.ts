import type { PolicyRule } from "../../apis/v1/rbac-types.js";
import type { AuditEvent } from "../control-plane/audit-log.js";

/** The attributes of one resource request that an RBAC rule is matched on. */
export interface ResourceRequest {
  /** API group; `""` is the core group. */
  apiGroup: string;
  /** Resource, e.g. `pods`. */
  resource: string;
  /** Subresource, e.g. `status`; `""` for none. */
  subresource: string;
  /** The authorizer's verb: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, ... */
  verb: string;
  /** The object's name; `""` when the request names none (a list, a watch, a create). */
  name: string;
  /** The namespace; `""` for a cluster-scoped resource or every namespace. */
  namespace: string;
}

/**
 * Reports whether `rule` allows `request`, as Kubernetes' RBAC authorizer matches one rule: the
 * verb, the API group, the resource (`resource/subresource` for a subresource; `*` for any, and a
 * `*` before `/subresource` for that subresource of any) and, when the rule lists any, the name.
 *
 * @example
 * ```ts
 * const rule = { apiGroups: [""], resources: ["pods/status"], verbs: ["patch"] };
 * ruleAllows(rule, { apiGroup: "", resource: "pods", subresource: "status", verb: "patch", name: "p", namespace: "ns" }); // => true
 * ruleAllows(rule, { apiGroup: "", resource: "pods", subresource: "", verb: "patch", name: "p", namespace: "ns" }); // => false
 * ```
 */
export function ruleAllows(rule: PolicyRule, request: ResourceRequest): boolean {
  const { apiGroup, resource, subresource, verb, name } = request;
  const combined = subresource === "" ? resource : `${resource}/${subresource}`;
  const resourceMatches = rule.resources.some(
    (r) => r === "*" || r === combined || (subresource !== "" && r === `*/${subresource}`),
  );
  const nameMatches = rule.resourceNames === undefined || rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
  return (
    (rule.verbs.includes("*") || rule.verbs.includes(verb)) &&
    (rule.apiGroups.includes("*") || rule.apiGroups.includes(apiGroup)) &&
    resourceMatches &&
    nameMatches
  );
}

/**
 * The resource request an audit event records, or `undefined` for a non-resource request (`/api`,
 * `/healthz`, ...).
 *
 * @example
 * ```ts
 * const requests = (await plane.auditEvents()).map(resourceRequestOf).filter((r) => r !== undefined);
 * ```
 */
export function resourceRequestOf(event: AuditEvent): ResourceRequest | undefined {
  const ref = event.objectRef;
  if (ref?.resource === undefined) return undefined;
  return {
    apiGroup: ref.apiGroup ?? "",
    resource: ref.resource,
    subresource: ref.subresource ?? "",
    verb: event.verb,
    name: ref.name ?? "",
    namespace: ref.namespace ?? "",
  };
}

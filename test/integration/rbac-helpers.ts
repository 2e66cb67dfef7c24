/**
 * RBAC for integration tests: install a ClusterRole bound to subjects, ask the real authorizer
 * (SubjectAccessReview) what a user may do, and expand a role into its single grants.
 *
 * @module
 */
import { AuthorizationV1Api, RbacAuthorizationV1Api, type KubeConfig, type RbacV1Subject } from "@kubernetes/client-node";
import type { ClusterRole, PolicyRule } from "../../src/apis/v1/index.js";
import type { ResourceRequest } from "../../src/testing/index.js";

/** One verb on one resource of one group: the smallest thing a rule grants. */
export type Grant = Pick<ResourceRequest, "apiGroup" | "resource" | "subresource" | "verb">;

/** Every grant of `rule`, in order. */
export function grantsOf(rule: PolicyRule): Grant[] {
  return rule.apiGroups.flatMap((apiGroup) =>
    rule.resources.flatMap((combined) => {
      const [resource = "", subresource = ""] = combined.split("/");
      return rule.verbs.map((verb) => ({ apiGroup, resource, subresource, verb }));
    }),
  );
}

/** The rule that grants exactly `grant`. */
export function grantRule(grant: Grant): PolicyRule {
  const resource = grant.subresource ? `${grant.resource}/${grant.subresource}` : grant.resource;
  return { apiGroups: [grant.apiGroup], resources: [resource], verbs: [grant.verb] };
}

/** `group/resource[/subresource] verb`, for messages. */
export const grantName = (g: Grant): string => `${g.apiGroup || "core"}/${g.resource}${g.subresource ? `/${g.subresource}` : ""} ${g.verb}`;

/** Creates `role` and a ClusterRoleBinding of the same name that binds it to `subjects`. */
export async function bindClusterRole(admin: KubeConfig, role: ClusterRole, subjects: RbacV1Subject[]): Promise<void> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  const { name } = role.metadata;
  await rbac.createClusterRole({ body: role });
  await rbac.createClusterRoleBinding({
    body: { metadata: { name }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name }, subjects },
  });
}

/** The groups the API server gives a service account of `namespace`. */
export const serviceAccountGroups = (namespace: string): string[] => [
  "system:serviceaccounts",
  `system:serviceaccounts:${namespace}`,
  "system:authenticated",
];

/** Whether the authorizer (Node, then RBAC) allows `user` in `groups` the `grant` on `name` in `namespace`. */
export async function allowed(
  admin: KubeConfig,
  user: string,
  groups: string[],
  grant: Grant,
  namespace = "",
  name = "",
): Promise<boolean> {
  const { apiGroup: group, resource, subresource, verb } = grant;
  const review = await admin.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({
    body: { spec: { user, groups, resourceAttributes: { group, resource, subresource, verb, namespace, name } } },
  });
  return review.status?.allowed === true;
}

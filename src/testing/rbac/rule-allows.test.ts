import { describe, expect, it } from "vitest";
import type { PolicyRule } from "../../apis/v1/rbac-types.js";
import type { AuditEvent } from "../control-plane/audit-log.js";
import { resourceRequestOf, ruleAllows, type ResourceRequest } from "./rule-allows.js";

const request = (fields: Partial<ResourceRequest>): ResourceRequest => ({
  apiGroup: "",
  resource: "pods",
  subresource: "",
  verb: "get",
  name: "p",
  namespace: "ns",
  ...fields,
});
const PODS: PolicyRule = { apiGroups: [""], resources: ["pods"], verbs: ["get", "patch"] };

describe("ruleAllows", () => {
  it.each([
    { name: "the verb, group and resource", rule: PODS, req: request({}), want: true },
    { name: "another verb", rule: PODS, req: request({ verb: "delete" }), want: false },
    { name: "another group", rule: PODS, req: request({ apiGroup: "apps" }), want: false },
    { name: "another resource", rule: PODS, req: request({ resource: "nodes" }), want: false },
    { name: "a subresource of a resource rule", rule: PODS, req: request({ subresource: "status", verb: "patch" }), want: false },
    {
      name: "a subresource rule",
      rule: { apiGroups: [""], resources: ["pods/status"], verbs: ["patch"] },
      req: request({ subresource: "status", verb: "patch" }),
      want: true,
    },
    {
      name: "the resource of a subresource rule",
      rule: { apiGroups: [""], resources: ["pods/status"], verbs: ["patch"] },
      req: request({ verb: "patch" }),
      want: false,
    },
    { name: "a wildcard verb", rule: { ...PODS, verbs: ["*"] }, req: request({ verb: "deletecollection" }), want: true },
    { name: "a wildcard group", rule: { ...PODS, apiGroups: ["*"] }, req: request({ apiGroup: "apps" }), want: true },
    { name: "a wildcard resource, with a subresource", rule: { ...PODS, resources: ["*"] }, req: request({ subresource: "log" }), want: true },
    { name: "*/subresource", rule: { ...PODS, resources: ["*/status"] }, req: request({ resource: "nodes", subresource: "status" }), want: true },
    { name: "*/subresource, no subresource", rule: { ...PODS, resources: ["*/status"] }, req: request({}), want: false },
    { name: "a listed name", rule: { ...PODS, resourceNames: ["p", "q"] }, req: request({}), want: true },
    { name: "an unlisted name", rule: { ...PODS, resourceNames: ["q"] }, req: request({}), want: false },
    { name: "no name against listed names", rule: { ...PODS, resourceNames: ["p"] }, req: request({ name: "" }), want: false },
    { name: "empty resourceNames", rule: { ...PODS, resourceNames: [] }, req: request({ name: "" }), want: true },
  ])("$name: $want", ({ rule, req, want }) => {
    expect(ruleAllows(rule, req)).toBe(want);
  });
});

describe("resourceRequestOf", () => {
  const event = (fields: Partial<AuditEvent>): AuditEvent => ({
    auditID: "a",
    stage: "ResponseComplete",
    requestURI: "/x",
    verb: "patch",
    user: { username: "u", groups: [] },
    ...fields,
  });

  it("reads group, resource, subresource, verb, name and namespace; the core group is empty", () => {
    expect(
      resourceRequestOf(event({ objectRef: { resource: "pods", subresource: "status", namespace: "ns", name: "p", apiVersion: "v1" } })),
    ).toEqual(request({ subresource: "status", verb: "patch" }));
    expect(resourceRequestOf(event({ verb: "watch", objectRef: { resource: "leases", apiGroup: "coordination.k8s.io" } }))).toEqual(
      request({ apiGroup: "coordination.k8s.io", resource: "leases", verb: "watch", name: "", namespace: "" }),
    );
  });

  it("is undefined for a non-resource request", () => {
    expect(resourceRequestOf(event({ verb: "get", requestURI: "/api" }))).toBeUndefined();
  });
});

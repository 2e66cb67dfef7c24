import { describe, expect, it } from "vitest";
import { GROUP } from "./groupversion-info.js";
import { cocoonKubeletClusterRole, cocoonOperatorClusterRole } from "./rbac.js";

const VERBS = new Set(["get", "list", "watch", "create", "update", "patch", "delete"]);

describe.each([
  { name: "cocoon-operator", role: cocoonOperatorClusterRole },
  { name: "cocoon-kubelet", role: cocoonKubeletClusterRole },
])("the $name ClusterRole", ({ name, role }) => {
  it("is named and labelled after itself", () => {
    expect(role.metadata).toEqual({ name, labels: { "app.kubernetes.io/name": name } });
  });

  it("grants no wildcard, no escalation and no resource twice", () => {
    const grants = role.rules.flatMap((rule) =>
      rule.apiGroups.flatMap((group) => rule.resources.map((resource) => `${group}/${resource}`)),
    );
    expect(new Set(grants).size).toBe(grants.length);
    for (const rule of role.rules) {
      expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain("*");
      for (const verb of rule.verbs) expect(VERBS.has(verb), verb).toBe(true);
    }
  });
});

describe("the rules", () => {
  it("the operator's: CocoonSets read and patched, pods created, patched and deleted", () => {
    expect(cocoonOperatorClusterRole.rules).toEqual([
      { apiGroups: [GROUP], resources: ["cocoonsets"], verbs: ["list", "watch", "patch"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch", "create", "patch", "delete"] },
    ]);
  });

  it("the virtual kubelet's: its node and status, its pods and their status, its node lease", () => {
    expect(cocoonKubeletClusterRole.rules.map((r) => `${r.apiGroups.join()}/${r.resources.join()}: ${r.verbs.join()}`)).toEqual([
      "/nodes: get,create,update",
      "/nodes/status: patch",
      "/pods: list,watch,patch,delete",
      "/pods/status: patch",
      "coordination.k8s.io/leases: get,create,update",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { readCocoonSetGeneration } from "./generation.js";
import { Annotation, Role } from "./keys.js";
import type { PodLike } from "./objects.js";
import { agentVMNamePrefix, extractAgentSlot, inferRoleFromAgentSlot, roleForPod, vmNameForDeployment, vmNameForPod } from "./vmname.js";

// Skipped Go cases: stored meta_test.go versions also test ExtractSlotFromVMName, InferRoleFromVMName
// and MainAgentVMNameFor, which cocoon-common v0.3.0 no longer has (go-contract.md §2.3).

describe("vm naming (Go TestVMNamingHelpers)", () => {
  it("vmNameForDeployment(prod, demo, 2)", () => {
    expect(vmNameForDeployment("prod", "demo", 2)).toBe("vk-prod-demo-2");
  });

  it("vmNameForPod(prod, toolbox)", () => {
    expect(vmNameForPod("prod", "toolbox")).toBe("vk-prod-toolbox");
  });

  it.each<[string, string, number, string]>([
    ["ns", "cs", 0, "vk-ns-cs-0"],
    ["ns", "d", -1, "vk-ns-d--1"],
    ["", "", 0, "vk---0"],
  ])("vmNameForDeployment(%j, %j, %d) is %j", (ns, deployment, slot, want) => {
    expect(vmNameForDeployment(ns, deployment, slot)).toBe(want);
  });

  it.each<[string, number]>([
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["2**60", 2 ** 60],
  ])("vmNameForDeployment rejects slot %s with ERR_INVALID_INTEGER", (_name, slot) => {
    let caught: unknown;
    try {
      vmNameForDeployment("ns", "cs", slot);
    } catch (err) {
      caught = err;
    }
    expect(isCocoonError(caught, "ERR_INVALID_INTEGER"), String(caught)).toBe(true);
  });

  it("vmNameForPod has no escaping", () => {
    expect(vmNameForPod("", "")).toBe("vk--");
    expect(vmNameForPod("ns", "demo-shell")).toBe("vk-ns-demo-shell");
  });

  it("agentVMNamePrefix is vk-<ns>-<set>-", () => {
    expect(agentVMNamePrefix("prod", "demo")).toBe("vk-prod-demo-");
    expect(agentVMNamePrefix("ns", "")).toBe("vk-ns--");
  });

  it("every name vmNameForDeployment builds starts with the prefix", () => {
    expect(vmNameForDeployment("prod", "demo", 12).startsWith(agentVMNamePrefix("prod", "demo"))).toBe(true);
  });
});

describe("extractAgentSlot (Go TestExtractAgentSlot)", () => {
  it.each<[string, string, string, string, number]>([
    ["main agent", "prod", "demo", "vk-prod-demo-0", 0],
    ["sub-agent", "prod", "demo", "vk-prod-demo-3", 3],
    ["toolbox with trailing digit is not an agent slot", "prod", "demo", "vk-prod-demo-db-2", -1],
    ["toolbox without trailing digit", "prod", "demo", "vk-prod-demo-toolbox", -1],
    ["different cocoonset", "prod", "demo", "vk-prod-other-0", -1],
    ["different namespace", "prod", "demo", "vk-staging-demo-0", -1],
    ["non-vk prefix", "prod", "demo", "prod-demo-0", -1],
  ])("%s", (_name, ns, cocoonSet, vmName, want) => {
    expect(extractAgentSlot(ns, cocoonSet, vmName)).toBe(want);
  });

  // go-contract.md §2.3 ExtractAgentSlot and §8.3: strings.CutPrefix, no dash, then strconv.Atoi.
  it.each<[string, string, string, string, number]>([
    ["plus sign is accepted", "prod", "demo", "vk-prod-demo-+1", 1],
    ["plus zero is main", "prod", "demo", "vk-prod-demo-+0", 0],
    ["leading zero is accepted", "prod", "demo", "vk-prod-demo-01", 1],
    ["many leading zeros", "prod", "demo", "vk-prod-demo-0007", 7],
    ["negative suffix has a dash", "prod", "demo", "vk-prod-demo--1", -1],
    ["minus zero has a dash (Atoi alone would read 0)", "prod", "demo", "vk-prod-demo--0", -1],
    ["toolbox app-0", "ns", "cs", "vk-ns-cs-app-0", -1],
    ["upper-case prefix", "prod", "demo", "VK-prod-demo-0", -1],
    ["prefix case matters in names too", "prod", "demo", "vk-Prod-demo-0", -1],
    ["empty suffix", "prod", "demo", "vk-prod-demo-", -1],
    ["prefix without trailing dash", "prod", "demo", "vk-prod-demo", -1],
    ["lone plus", "prod", "demo", "vk-prod-demo-+", -1],
    ["decimal", "prod", "demo", "vk-prod-demo-1.0", -1],
    ["exponent", "prod", "demo", "vk-prod-demo-1e2", -1],
    ["hex", "prod", "demo", "vk-prod-demo-0x1", -1],
    ["underscore", "prod", "demo", "vk-prod-demo-1_0", -1],
    ["leading space", "prod", "demo", "vk-prod-demo- 1", -1],
    ["trailing space", "prod", "demo", "vk-prod-demo-1 ", -1],
    ["non-ASCII digits", "prod", "demo", "vk-prod-demo-٣", -1],
    ["full-width digits", "prod", "demo", "vk-prod-demo-３", -1],
    ["int64 max + 1", "prod", "demo", "vk-prod-demo-9223372036854775808", -1],
    ["past int64", "prod", "demo", "vk-prod-demo-99999999999999999999", -1],
    ["set name is a prefix of another set", "prod", "demo", "vk-prod-demo2-0", -1],
    // Textual matching is ambiguous across dash-containing names, as in Go.
    ["ambiguous: set a-b", "prod", "a-b", "vk-prod-a-b-0", 0],
    ["ambiguous: namespace prod-a", "prod-a", "b", "vk-prod-a-b-0", 0],
    ["dashed set name", "prod", "my-app", "vk-prod-my-app-3", 3],
    ["empty cocoonSet", "ns", "", "vk-ns--0", 0],
    ["empty cocoonSet, sub-agent", "ns", "", "vk-ns--4", 4],
    // The short-digit fast path ends at 15 digits; 16 and more go through the int64 parser.
    ["15 digits", "prod", "demo", "vk-prod-demo-999999999999999", 999999999999999],
    ["16 digits", "prod", "demo", "vk-prod-demo-1000000000000000", 1000000000000000],
    ["16 digits with a leading zero", "prod", "demo", "vk-prod-demo-0999999999999999", 999999999999999],
    ["separator after namespace is not a dash", "prod", "demo", "vk-prodxdemo-1", -1],
    ["separator after set is not a dash", "prod", "demo", "vk-prod-demox1", -1],
    ["vm name shorter than the prefix", "prod", "demo", "vk-prod-de", -1],
    ["namespace only", "prod", "demo", "vk-prod-", -1],
  ])("%s", (_name, ns, cocoonSet, vmName, want) => {
    expect(extractAgentSlot(ns, cocoonSet, vmName)).toBe(want);
  });

  it("int64 max is a positive slot, exact as a bigint (Go 9223372036854775807)", () => {
    const slot = extractAgentSlot("prod", "demo", "vk-prod-demo-9223372036854775807");
    expect(slot).toBe(9223372036854775807n);
    expect(inferRoleFromAgentSlot(slot)).toBe(Role.SubAgent);
  });

  it("returns what readCocoonSetGeneration returns for the same digits", () => {
    for (const digits of ["0", "+7", "0009007199254740991", "9007199254740992", "9007199254740993", "9223372036854775807"]) {
      const pod = { metadata: { annotations: { [Annotation.CocoonSetGeneration]: digits } } };
      expect(extractAgentSlot("p", "d", `vk-p-d-${digits}`)).toBe(readCocoonSetGeneration(pod));
    }
  });

  it("round-trips a bigint slot through vmNameForDeployment", () => {
    const name = vmNameForDeployment("prod", "demo", 9223372036854775807n);
    expect(name).toBe("vk-prod-demo-9223372036854775807");
    expect(extractAgentSlot("prod", "demo", name)).toBe(9223372036854775807n);
  });

  it("is -1 for arguments that are not strings, without throwing", () => {
    const hostile: unknown[] = [null, undefined, 7, 7n, Symbol("s"), {}, ["vk-p-d-0"]];
    for (const value of hostile) {
      const asString = value as string;
      expect(extractAgentSlot(asString, "d", "vk-p-d-0")).toBe(-1);
      expect(extractAgentSlot("p", asString, "vk-p-d-0")).toBe(-1);
      expect(extractAgentSlot("p", "d", asString)).toBe(-1);
    }
  });

  it("the largest safe slot is exact", () => {
    expect(extractAgentSlot("prod", "demo", "vk-prod-demo-9007199254740991")).toBe(9007199254740991);
  });

  it("inverts vmNameForDeployment for non-negative slots", () => {
    for (const slot of [0, 1, 9, 10, 123]) {
      expect(extractAgentSlot("prod", "demo", vmNameForDeployment("prod", "demo", slot))).toBe(slot);
    }
  });

  it("vmNameForPod names are never agent slots for a name with a dash", () => {
    expect(extractAgentSlot("prod", "demo", vmNameForPod("prod", "demo-db-2"))).toBe(-1);
  });
});

describe("inferRoleFromAgentSlot (Go TestInferRoleFromAgentSlot)", () => {
  it.each<[number, Role]>([
    [0, Role.Main],
    [7, Role.SubAgent],
    [-1, Role.Toolbox],
    [1, Role.SubAgent],
    [-100, Role.Toolbox],
  ])("slot %d is %s", (slot, want) => {
    expect(inferRoleFromAgentSlot(slot)).toBe(want);
  });

  it.each<[bigint, Role]>([
    [0n, Role.Main],
    [9223372036854775807n, Role.SubAgent],
    [-1n, Role.Toolbox],
  ])("bigint slot %s is %s", (slot, want) => {
    expect(inferRoleFromAgentSlot(slot)).toBe(want);
  });

  it("reads a value that is not a slot as a toolbox, without throwing", () => {
    for (const value of [Number.NaN, Symbol("s"), null, undefined, "0", {}]) {
      expect(inferRoleFromAgentSlot(value as number)).toBe(Role.Toolbox);
    }
  });
});

describe("roleForPod (Go TestRoleForPod)", () => {
  const owned = (namespace: string, name = "cs"): PodLike => ({
    metadata: { namespace, ownerReferences: [{ kind: "CocoonSet", name }] },
  });

  it.each<[string, PodLike, string, Role]>([
    ["agent slot 0 is main", owned("ns"), "vk-ns-cs-0", Role.Main],
    ["agent slot 2 is sub-agent", owned("ns"), "vk-ns-cs-2", Role.SubAgent],
    ["toolbox named app-0 is not main", owned("ns"), "vk-ns-cs-app-0", Role.Toolbox],
    ["no CocoonSet owner is toolbox", { metadata: { namespace: "ns" } }, "vk-ns-cs-0", Role.Toolbox],
    // Go v0.3.0 panics on a nil pod; an empty object is the closest TS input.
    ["nil pod is toolbox", {}, "vk-ns-cs-0", Role.Toolbox],
    ["another namespace is toolbox", owned("other"), "vk-ns-cs-0", Role.Toolbox],
    [
      "a non-CocoonSet owner is ignored",
      { metadata: { namespace: "ns", ownerReferences: [{ kind: "ReplicaSet", name: "cs" }] } },
      "vk-ns-cs-0",
      Role.Toolbox,
    ],
    // go-contract.md §8.3: with no owner the prefix is vk-NS--, so vk-ns--0 reads as the main agent.
    ["quirk: owner-less pod with vk-ns--0 is main", { metadata: { namespace: "ns" } }, "vk-ns--0", Role.Main],
    ["quirk: owner-less pod with vk-ns--3 is sub-agent", { metadata: { namespace: "ns" } }, "vk-ns--3", Role.SubAgent],
    ["quirk: owner with an empty name behaves as owner-less", owned("ns", ""), "vk-ns--0", Role.Main],
    // Go decodes a JSON null owner reference to a zero OwnerReference and reads on.
    [
      "a null owner reference is skipped",
      { metadata: { namespace: "ns", ownerReferences: [null, { kind: "CocoonSet", name: "cs" }] } } as unknown as PodLike,
      "vk-ns-cs-0",
      Role.Main,
    ],
    ["a namespace that is not a string reads as empty", { metadata: { namespace: 5 } } as unknown as PodLike, "vk---0", Role.Main],
  ])("%s", (_name, pod, vmName, want) => {
    expect(roleForPod(pod, vmName)).toBe(want);
  });

  // A read that throws costs only its own field: the others are read on their own, as Go's zero values.
  const throwing = (fields: Record<string, unknown>, broken: string): PodLike => ({
    metadata: Object.defineProperty({ ...fields }, broken, {
      get: () => {
        throw new Error("hostile getter");
      },
    }),
  });

  it.each<[string, PodLike, string, Role]>([
    [
      "a namespace that throws reads as empty",
      throwing({ ownerReferences: [{ kind: "CocoonSet", name: "cs" }] }, "namespace"),
      "vk--cs-0",
      Role.Main,
    ],
    ["owner references that throw read as none", throwing({ namespace: "ns" }, "ownerReferences"), "vk-ns--2", Role.SubAgent],
    [
      "an owner reference whose kind throws is skipped",
      { metadata: { namespace: "ns", ownerReferences: [throwing({}, "kind").metadata, { kind: "CocoonSet", name: "cs" }] } } as PodLike,
      "vk-ns-cs-0",
      Role.Main,
    ],
    ["a pod that is not an object is a toolbox", 7 as unknown as PodLike, "vk-ns-cs-0", Role.Toolbox],
  ])("%s", (_name, pod, vmName, want) => {
    expect(roleForPod(pod, vmName)).toBe(want);
  });
});

import { describe, expect, it } from "vitest";
import { Annotation, DEFAULT_NODE_POOL, HOSTNAME_LABEL, KIND_COCOONSET, Label, Role, SnapshotTag, TOLERATION_KEY } from "./keys.js";
import { LifecycleState } from "./lifecycle.js";

// Every value below is go-contract.md §2.1 (cocoon-common v0.3.0 keys.go / lifecycle.go), verbatim.
const ANNOTATIONS: [keyof typeof Annotation, string][] = [
  ["Mode", "cocoonset.cocoonstack.io/mode"],
  ["Image", "cocoonset.cocoonstack.io/image"],
  ["Storage", "cocoonset.cocoonstack.io/storage"],
  ["Managed", "cocoonset.cocoonstack.io/managed"],
  ["OS", "cocoonset.cocoonstack.io/os"],
  ["SnapshotPolicy", "cocoonset.cocoonstack.io/snapshot-policy"],
  ["Network", "cocoonset.cocoonstack.io/network"],
  ["ForcePull", "cocoonset.cocoonstack.io/force-pull"],
  ["CocoonSetGeneration", "cocoonset.cocoonstack.io/generation"],
  ["HibernatedOnNode", "cocoonset.cocoonstack.io/hibernated-on-node"],
  ["VMID", "vm.cocoonstack.io/id"],
  ["VMName", "vm.cocoonstack.io/name"],
  ["IP", "vm.cocoonstack.io/ip"],
  ["VNCPort", "vm.cocoonstack.io/vnc-port"],
  ["Hibernate", "vm.cocoonstack.io/hibernate"],
  ["RestoreFromHibernate", "vm.cocoonstack.io/restore-from-hibernate"],
  ["KeepSnapshotOnDelete", "vm.cocoonstack.io/keep-snapshot-on-delete"],
  ["ForkFrom", "vm.cocoonstack.io/fork-from"],
  ["CloneFromDir", "vm.cocoonstack.io/clone-from-dir"],
  ["ConnType", "vm.cocoonstack.io/conn-type"],
  ["Backend", "vm.cocoonstack.io/backend"],
  ["NoDirectIO", "vm.cocoonstack.io/no-direct-io"],
  ["ProbePort", "vm.cocoonstack.io/probe-port"],
  ["LifecycleState", "vm.cocoonstack.io/lifecycle-state"],
  ["LifecycleObservedGeneration", "vm.cocoonstack.io/lifecycle-observed-generation"],
  ["LifecycleStateMessage", "vm.cocoonstack.io/lifecycle-state-message"],
];

const LABELS: [keyof typeof Label, string][] = [
  ["CocoonSet", "cocoonset.cocoonstack.io/name"],
  ["Role", "cocoonset.cocoonstack.io/role"],
  ["Slot", "cocoonset.cocoonstack.io/slot"],
  ["NodePool", "cocoonstack.io/pool"],
  ["SnapshotCompatibilityClass", "cocoonstack.io/snapshot-cpu-class"],
];

describe("Annotation", () => {
  it.each(ANNOTATIONS)("Annotation.%s is %s", (name, value) => {
    expect(Annotation[name]).toBe(value);
  });

  it("holds exactly the 26 Go annotation keys, no more", () => {
    expect(Object.keys(Annotation).sort()).toEqual(ANNOTATIONS.map(([name]) => name).sort());
    expect(Object.keys(Annotation)).toHaveLength(26);
  });

  it("has no two keys with the same value", () => {
    const values = Object.values(Annotation);
    expect(new Set(values).size).toBe(values.length);
  });

  it("shares no value with a label", () => {
    const labels = new Set<string>(Object.values(Label));
    expect(Object.values(Annotation).filter((value) => labels.has(value))).toEqual([]);
  });

  it.each([["Managed"], ["ForcePull"], ["OS"], ["Mode"], ["Image"], ["Storage"], ["Network"], ["SnapshotPolicy"]] as const)(
    "keeps the spelling trap: %s lives under cocoonset.cocoonstack.io/",
    (name) => {
      expect(Annotation[name].startsWith("cocoonset.cocoonstack.io/")).toBe(true);
    },
  );

  it.each([["NoDirectIO"], ["ConnType"], ["Backend"], ["ProbePort"], ["ForkFrom"]] as const)(
    "keeps the spelling trap: %s lives under vm.cocoonstack.io/",
    (name) => {
      expect(Annotation[name].startsWith("vm.cocoonstack.io/")).toBe(true);
    },
  );
});

describe("Label", () => {
  it.each(LABELS)("Label.%s is %s", (name, value) => {
    expect(Label[name]).toBe(value);
  });

  it("holds exactly the 5 Go labels", () => {
    expect(Object.keys(Label).sort()).toEqual(LABELS.map(([name]) => name).sort());
  });

  it("has no two keys with the same value", () => {
    expect(new Set(Object.values(Label)).size).toBe(LABELS.length);
  });
});

describe("Role", () => {
  it.each([
    ["Main", "main"],
    ["SubAgent", "sub-agent"],
    ["Toolbox", "toolbox"],
  ] as const)("Role.%s is %s", (name, value) => {
    expect(Role[name]).toBe(value);
  });

  it("holds exactly three roles", () => {
    expect(Object.keys(Role)).toHaveLength(3);
  });
});

describe("SnapshotTag (Go TestHibernateSnapshotTagConstant, TestDefaultSnapshotTagConstant)", () => {
  it("Hibernate is hibernate", () => {
    expect(SnapshotTag.Hibernate).toBe("hibernate");
  });

  it("Default is latest and differs from Hibernate", () => {
    expect(SnapshotTag.Default).toBe("latest");
    expect(SnapshotTag.Default).not.toBe(SnapshotTag.Hibernate);
  });

  it("holds exactly two tags", () => {
    expect(Object.keys(SnapshotTag)).toHaveLength(2);
  });
});

describe("LifecycleState", () => {
  it.each([
    ["Creating", "creating"],
    ["Ready", "ready"],
    ["Hibernating", "hibernating"],
    ["Hibernated", "hibernated"],
    ["Failed", "failed"],
  ] as const)("LifecycleState.%s is %s", (name, value) => {
    expect(LifecycleState[name]).toBe(value);
  });

  it("holds exactly five states", () => {
    expect(Object.keys(LifecycleState)).toHaveLength(5);
  });
});

describe("lone constants", () => {
  it.each([
    ["KIND_COCOONSET", KIND_COCOONSET, "CocoonSet"],
    ["TOLERATION_KEY", TOLERATION_KEY, "virtual-kubelet.io/provider"],
    ["DEFAULT_NODE_POOL", DEFAULT_NODE_POOL, "default"],
    ["HOSTNAME_LABEL", HOSTNAME_LABEL, "kubernetes.io/hostname"],
  ])("%s is exact", (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { NOT_A_POD, type PodAnnotationsView, readAnnotationsView } from "./annotations.js";

const pod = (annotations: Record<string, unknown>, kind = "Pod") => ({ apiVersion: "v1", kind, metadata: { name: "p", annotations } });
const ZERO_SPEC = {
  vmName: "",
  image: "",
  mode: "",
  os: "",
  storage: "",
  network: "",
  snapshotPolicy: "",
  forkFrom: "",
  managed: false,
  forcePull: false,
  noDirectIO: false,
  connType: "",
  backend: "",
  probePort: "",
};

describe("readAnnotationsView", () => {
  it("reads Go's zero values from an object without annotations", () => {
    expect(readAnnotationsView({ kind: "Pod", metadata: { name: "p" } })).toEqual({
      view: {
        vmSpec: ZERO_SPEC,
        vmRuntime: { vmID: "", ip: "", vncPort: 0 },
        lifecycleStatus: { state: "", observedGeneration: 0, message: "" },
        hibernateState: false,
        restoreFromHibernate: false,
        keepSnapshotOnDelete: false,
        cocoonSetGeneration: 0,
      },
      notes: [],
      errors: [],
    });
  });

  it("reads every contract, in Go's VMSpec field order", () => {
    const { view } = readAnnotationsView(
      pod({
        "vm.cocoonstack.io/name": "vk-ns-demo-0",
        "cocoonset.cocoonstack.io/managed": "true",
        "vm.cocoonstack.io/probe-port": "8080",
        "vm.cocoonstack.io/id": "vm-1",
        "vm.cocoonstack.io/vnc-port": "+5900",
        "vm.cocoonstack.io/lifecycle-state": "hibernated",
        "vm.cocoonstack.io/lifecycle-observed-generation": "4",
        "vm.cocoonstack.io/hibernate": "true",
        "vm.cocoonstack.io/restore-from-hibernate": "true",
        "vm.cocoonstack.io/keep-snapshot-on-delete": "true",
        "cocoonset.cocoonstack.io/generation": "9223372036854775807",
      }),
    );
    expect(view).toEqual({
      vmSpec: { ...ZERO_SPEC, vmName: "vk-ns-demo-0", managed: true, probePort: "8080" },
      vmRuntime: { vmID: "vm-1", ip: "", vncPort: 5900 },
      lifecycleStatus: { state: "hibernated", observedGeneration: 4, message: "" },
      hibernateState: true,
      restoreFromHibernate: true,
      keepSnapshotOnDelete: true,
      cocoonSetGeneration: 9223372036854775807n,
    });
    expect(Object.keys((view as PodAnnotationsView).vmSpec)).toEqual(Object.keys(ZERO_SPEC));
  });

  it("reads only the wake hint on a CocoonSet", () => {
    expect(readAnnotationsView(pod({ "cocoonset.cocoonstack.io/hibernated-on-node": "node-a" }, "CocoonSet"))).toEqual({
      view: { hibernatedOnNode: "node-a" },
      notes: [],
      errors: [],
    });
  });

  it.each([
    { name: "a ConfigMap", value: pod({ "vm.cocoonstack.io/id": "vm-1" }, "ConfigMap") },
    { name: "a Deployment", value: pod({}, "Deployment") },
    { name: "an object without a kind", value: { metadata: { annotations: {} } } },
    { name: "a kind named like an Object.prototype member", value: pod({}, "constructor") },
  ])("says that $name is not a Pod, without a view", ({ value }) => {
    expect(readAnnotationsView(value)).toEqual({ skipped: NOT_A_POD, notes: [], errors: [] });
  });

  it("notes a storage that is not a quantity (the kind comes from the contract's table)", () => {
    expect(readAnnotationsView(pod({ "cocoonset.cocoonstack.io/storage": "20 GiB" })).notes).toEqual([
      'cocoonset.cocoonstack.io/storage="20 GiB" is not a quantity such as 512Mi or 1.5Gi',
    ]);
  });

  it.each([
    {
      name: "a flag that is not exactly true",
      key: "vm.cocoonstack.io/hibernate",
      value: "True",
      note: 'vm.cocoonstack.io/hibernate="True" reads as false: only "true" counts',
    },
    {
      name: "an int32 with letters",
      key: "vm.cocoonstack.io/vnc-port",
      value: "59OO",
      note: 'vm.cocoonstack.io/vnc-port="59OO" is not a decimal int32: reads as 0',
    },
    {
      name: "an int64 out of range",
      key: "cocoonset.cocoonstack.io/generation",
      value: "9223372036854775808",
      note: 'cocoonset.cocoonstack.io/generation="9223372036854775808" is not a decimal int64: reads as 0',
    },
    {
      name: "an unknown lifecycle state",
      key: "vm.cocoonstack.io/lifecycle-state",
      value: "Ready",
      note: 'vm.cocoonstack.io/lifecycle-state="Ready" is not a lifecycle state (creating, ready, hibernating, hibernated, failed)',
    },
    {
      name: "a cocoon-looking key outside the contract",
      key: "vm.cocoonstack.io/hibernat",
      value: "true",
      note: "vm.cocoonstack.io/hibernat is not an annotation of the cocoon contract: no reader sees it",
    },
  ])("notes $name", ({ key, value, note }) => {
    expect(readAnnotationsView(pod({ [key]: value })).notes).toEqual([note]);
  });

  it.each([{ value: "false" }, { value: "" }])("does not note a flag set to $value", ({ value }) => {
    expect(readAnnotationsView(pod({ "vm.cocoonstack.io/hibernate": value })).notes).toEqual([]);
  });

  it("reads a null annotation as empty, as Go decodes it", () => {
    expect(readAnnotationsView(pod({ "vm.cocoonstack.io/name": null }))).toMatchObject({ errors: [], notes: [] });
  });

  it.each([
    { name: "a boolean", value: true, message: "must be a string, got the boolean true: quote the value" },
    { name: "a number", value: 5900, message: "must be a string, got the number 5900: quote the value" },
    { name: "a list", value: ["a"], message: "must be a string, got a list: quote the value" },
  ])("rejects $name annotation, without a view", ({ value, message }) => {
    expect(readAnnotationsView(pod({ "vm.cocoonstack.io/hibernate": value }))).toEqual({
      notes: [],
      errors: [{ path: ["metadata", "annotations", "vm.cocoonstack.io/hibernate"], message }],
    });
  });

  it.each([
    {
      name: "a scalar document",
      value: "text",
      errors: [{ path: [], message: 'expected a Kubernetes object (a mapping), got the string "text"' }],
    },
    {
      name: "a list of annotations",
      value: { kind: "Pod", metadata: { annotations: ["a"] } },
      errors: [{ path: ["metadata", "annotations"], message: "must be a mapping of strings, got a list" }],
    },
  ])("rejects $name", ({ value, errors }) => {
    expect(readAnnotationsView(value).errors).toEqual(errors);
  });
});

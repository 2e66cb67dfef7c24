import { describe, expect, it } from "vitest";
import { readWithPollutedPrototype } from "../internal/polluted-prototype.test-util.js";
import type { Annotated } from "./annotations.js";
import { Annotation } from "./keys.js";
import { type VMSpec, applyVMSpec, parseVMSpec, vmSpecAnnotations } from "./vmspec.js";

// Go's nil-pod cases (TestVMSpecApplyNilPod, TestParseVMSpecNilPod) map to objects without metadata:
// TS has no nil pod to pass.

const EMPTY: VMSpec = {
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

// Go TestVMSpecApplyAndParse's spec, plus the probe port the Go test leaves out.
const FULL: VMSpec = {
  vmName: "vk-prod-demo-0",
  image: "ghcr.io/cocoonstack/cocoon/ubuntu:24.04",
  mode: "clone",
  os: "linux",
  storage: "100G",
  network: "default",
  snapshotPolicy: "always",
  forkFrom: "vk-prod-demo-main-0",
  managed: true,
  forcePull: true,
  noDirectIO: true,
  connType: "rdp",
  backend: "firecracker",
  probePort: "8080",
};

// The key each field is written to (go-contract.md §2.3 VMSpec.Apply).
const FULL_ANNOTATIONS: Record<string, string> = {
  "vm.cocoonstack.io/name": "vk-prod-demo-0",
  "cocoonset.cocoonstack.io/image": "ghcr.io/cocoonstack/cocoon/ubuntu:24.04",
  "cocoonset.cocoonstack.io/mode": "clone",
  "cocoonset.cocoonstack.io/os": "linux",
  "cocoonset.cocoonstack.io/storage": "100G",
  "cocoonset.cocoonstack.io/network": "default",
  "cocoonset.cocoonstack.io/snapshot-policy": "always",
  "vm.cocoonstack.io/fork-from": "vk-prod-demo-main-0",
  "cocoonset.cocoonstack.io/managed": "true",
  "cocoonset.cocoonstack.io/force-pull": "true",
  "vm.cocoonstack.io/no-direct-io": "true",
  "vm.cocoonstack.io/conn-type": "rdp",
  "vm.cocoonstack.io/backend": "firecracker",
  "vm.cocoonstack.io/probe-port": "8080",
};

describe("applyVMSpec / parseVMSpec (Go TestVMSpecApplyAndParse)", () => {
  it("writes every field under its exact key", () => {
    const pod: Annotated = { metadata: {} };
    applyVMSpec(pod, FULL);
    expect(pod.metadata?.annotations).toEqual(FULL_ANNOTATIONS);
  });

  it("parse after apply returns the original spec", () => {
    const pod: Annotated = {};
    applyVMSpec(pod, FULL);
    expect(parseVMSpec(pod)).toEqual(FULL);
  });

  it.each<[string, Partial<VMSpec>]>([
    ["the zero spec", {}],
    ["only a name", { vmName: "vk-x-0" }],
    ["only flags", { managed: true, noDirectIO: true }],
    ["false flags and empty strings", { managed: false, forcePull: false, image: "", probePort: "" }],
    ["toolbox-like", { vmName: "vk-prod-demo-shell", image: "img", mode: "run", os: "linux", managed: true, backend: "cloud-hypervisor" }],
  ])("round-trips %s on a fresh pod", (_name, spec) => {
    const pod: Annotated = {};
    applyVMSpec(pod, spec);
    expect(parseVMSpec(pod)).toEqual({ ...EMPTY, ...spec });
  });
});

describe("vmSpecAnnotations", () => {
  it("is exactly the full set for the full spec", () => {
    expect(vmSpecAnnotations(FULL)).toEqual(FULL_ANNOTATIONS);
  });

  it("never deletes: no null in any delta", () => {
    expect(Object.values(vmSpecAnnotations(EMPTY))).toEqual([]);
    expect(Object.values(vmSpecAnnotations(FULL)).includes(null)).toBe(false);
  });

  it("is empty for the zero spec", () => {
    expect(vmSpecAnnotations(EMPTY)).toEqual({});
    expect(vmSpecAnnotations({})).toEqual({});
  });

  it('a flag is written as "true" only when true', () => {
    expect(vmSpecAnnotations({ forcePull: true })).toEqual({ [Annotation.ForcePull]: "true" });
    expect(vmSpecAnnotations({ forcePull: false })).toEqual({});
  });
});

describe("applyVMSpec: empty and false never overwrite", () => {
  it("TestVMSpecApplySkipsEmptyFields", () => {
    const pod: Annotated = { metadata: { annotations: { [Annotation.Image]: "preset" } } };
    applyVMSpec(pod, { ...EMPTY, vmName: "vk-x-0" });
    expect(pod.metadata?.annotations?.[Annotation.Image]).toBe("preset");
    expect(pod.metadata?.annotations?.[Annotation.VMName]).toBe("vk-x-0");
    for (const key of [Annotation.Backend, Annotation.ConnType, Annotation.ForkFrom]) {
      expect(Object.hasOwn(pod.metadata?.annotations ?? {}, key), key).toBe(false);
    }
    expect(pod.metadata?.annotations).toEqual({ [Annotation.Image]: "preset", [Annotation.VMName]: "vk-x-0" });
  });

  it("TestVMSpecApplyManagedFlag: true sets managed, false leaves it unset", () => {
    const managed: Annotated = {};
    applyVMSpec(managed, { ...EMPTY, managed: true });
    expect(managed.metadata?.annotations).toEqual({ [Annotation.Managed]: "true" });

    const unmanaged: Annotated = {};
    applyVMSpec(unmanaged, { ...EMPTY, managed: false });
    expect(Object.hasOwn(unmanaged.metadata?.annotations ?? {}, Annotation.Managed)).toBe(false);
  });

  it("TestVMSpecApplyManagedFalseDoesNotClobber", () => {
    const pod: Annotated = { metadata: { annotations: { [Annotation.Managed]: "true" } } };
    applyVMSpec(pod, { ...EMPTY, vmName: "vk-x-0", managed: false });
    expect(pod.metadata?.annotations?.[Annotation.Managed]).toBe("true");
  });

  it("the empty spec over a full pod changes nothing", () => {
    const pod: Annotated = { metadata: { annotations: { ...FULL_ANNOTATIONS } } };
    applyVMSpec(pod, EMPTY);
    expect(pod.metadata?.annotations).toEqual(FULL_ANNOTATIONS);
  });

  it("non-empty fields overwrite", () => {
    const pod: Annotated = { metadata: { annotations: { ...FULL_ANNOTATIONS } } };
    applyVMSpec(pod, { ...EMPTY, image: "new", probePort: "22" });
    expect(pod.metadata?.annotations).toEqual({
      ...FULL_ANNOTATIONS,
      [Annotation.Image]: "new",
      [Annotation.ProbePort]: "22",
    });
  });

  it("creates the map even when nothing is written (Go ensurePodAnnotations)", () => {
    const pod: Annotated = {};
    applyVMSpec(pod, EMPTY);
    expect(pod).toEqual({ metadata: { annotations: {} } });
  });
});

describe("parseVMSpec", () => {
  it("TestParseVMSpecNilPod: an object without metadata is the zero spec", () => {
    expect(parseVMSpec({})).toEqual(EMPTY);
    expect(parseVMSpec({ metadata: {} })).toEqual(EMPTY);
  });

  it('reads strings raw and flags only for the exact "true"', () => {
    const pod: Annotated = {
      metadata: {
        annotations: {
          [Annotation.Mode]: "Bogus",
          [Annotation.ProbePort]: "not-a-port",
          [Annotation.Managed]: "True",
          [Annotation.ForcePull]: "1",
          [Annotation.NoDirectIO]: "true",
        },
      },
    };
    expect(parseVMSpec(pod)).toEqual({ ...EMPTY, mode: "Bogus", probePort: "not-a-port", noDirectIO: true });
  });

  it("never counts a key Object.prototype gains after the reader was optimized", () => {
    const pod: Annotated = { metadata: { annotations: { [Annotation.VMName]: "vk-demo-0", [Annotation.Managed]: "true" } } };
    const read = () => parseVMSpec(pod);
    const polluted = readWithPollutedPrototype(read, {
      [Annotation.Image]: "evil:latest",
      [Annotation.ForcePull]: "true",
      [Annotation.VMName]: "x",
    });
    expect(polluted).toEqual({ ...EMPTY, vmName: "vk-demo-0", managed: true });
  });

  it("reads a map without a prototype by its keys", () => {
    const bare = Object.assign(Object.create(null) as Record<string, string>, { [Annotation.Image]: "ubuntu:24.04" });
    expect(parseVMSpec({ metadata: { annotations: bare } })).toEqual({ ...EMPTY, image: "ubuntu:24.04" });
  });

  it("holds exactly the 14 Go fields", () => {
    expect(Object.keys(parseVMSpec({})).sort()).toEqual(Object.keys(EMPTY).sort());
    expect(Object.keys(EMPTY)).toHaveLength(14);
  });
});

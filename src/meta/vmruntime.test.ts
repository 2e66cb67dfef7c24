import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import type { Annotated } from "./annotations.js";
import { Annotation } from "./keys.js";
import { annotationsMergePatchJSON } from "./annotations-patch-json.js";
import {
  type VMRuntime,
  applyVMRuntime,
  clearVMRuntime,
  clearVMRuntimeAnnotations,
  parseVMRuntime,
  vmRuntimeAnnotations,
} from "./vmruntime.js";

const VMID = "vm.cocoonstack.io/id";
const IP = "vm.cocoonstack.io/ip";
const VNC = "vm.cocoonstack.io/vnc-port";
const ZERO: VMRuntime = { vmID: "", ip: "", vncPort: 0 };

const withVNC = (value: string): Annotated => ({ metadata: { annotations: { [VNC]: value } } });

describe("applyVMRuntime / parseVMRuntime", () => {
  it("TestVMRuntimeApplyAndParse: round trip", () => {
    const pod: Annotated = {};
    const runtime: VMRuntime = { vmID: "qemu-1234", ip: "10.88.100.7", vncPort: 5901 };
    applyVMRuntime(pod, runtime);
    expect(pod.metadata?.annotations).toEqual({ [VMID]: "qemu-1234", [IP]: "10.88.100.7", [VNC]: "5901" });
    expect(parseVMRuntime(pod)).toEqual(runtime);
  });

  it("TestVMRuntimeApplyZeroVNCPortNotEmitted", () => {
    const pod: Annotated = {};
    applyVMRuntime(pod, { vmID: "id", ip: "1.2.3.4", vncPort: 0 });
    expect(Object.hasOwn(pod.metadata?.annotations ?? {}, Annotation.VNCPort)).toBe(false);
    expect(pod.metadata?.annotations).toEqual({ [VMID]: "id", [IP]: "1.2.3.4" });
  });

  it("a negative port is not emitted either", () => {
    expect(vmRuntimeAnnotations({ vmID: "id", vncPort: -1 })).toEqual({ [VMID]: "id" });
  });

  it("never deletes: empty fields leave existing values untouched", () => {
    const pod: Annotated = { metadata: { annotations: { [VMID]: "old", [IP]: "10.0.0.1", [VNC]: "5900" } } };
    applyVMRuntime(pod, ZERO);
    expect(pod.metadata?.annotations).toEqual({ [VMID]: "old", [IP]: "10.0.0.1", [VNC]: "5900" });
  });

  it("creates the map even when nothing is written (Go ensurePodAnnotations)", () => {
    const pod: Annotated = {};
    applyVMRuntime(pod, ZERO);
    expect(pod).toEqual({ metadata: { annotations: {} } });
  });

  it("TestVMRuntimeApplyNilPod: a partial runtime is accepted", () => {
    const pod: Annotated = {};
    applyVMRuntime(pod, { vmID: "x" });
    expect(pod.metadata?.annotations).toEqual({ [VMID]: "x" });
  });
});

describe("vmRuntimeAnnotations", () => {
  it.each<[string, Partial<VMRuntime>, Record<string, string>]>([
    ["all set", { vmID: "a", ip: "b", vncPort: 5900 }, { [VMID]: "a", [IP]: "b", [VNC]: "5900" }],
    ["zero", ZERO, {}],
    ["empty object", {}, {}],
    ["port 1", { vncPort: 1 }, { [VNC]: "1" }],
    ["int32 max", { vncPort: 2147483647 }, { [VNC]: "2147483647" }],
  ])("%s", (_name, runtime, want) => {
    expect(vmRuntimeAnnotations(runtime)).toEqual(want);
  });

  it.each<[string, number]>([
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["2147483648 (past int32)", 2147483648],
    ["-2147483649 (past int32)", -2147483649],
  ])("rejects vncPort %s with ERR_INVALID_INTEGER", (_name, vncPort) => {
    let caught: unknown;
    try {
      vmRuntimeAnnotations({ vncPort });
    } catch (err) {
      caught = err;
    }
    expect(isCocoonError(caught, "ERR_INVALID_INTEGER"), String(caught)).toBe(true);
  });

  it("a rejected port leaves the object unchanged", () => {
    const pod: Annotated = {};
    expect(() => applyVMRuntime(pod, { vmID: "x", vncPort: 1.5 })).toThrow();
    expect(pod).toEqual({});
  });
});

describe("parseVMRuntime", () => {
  it("TestParseVMRuntimeNilPod: an object without metadata is the zero runtime", () => {
    expect(parseVMRuntime({})).toEqual(ZERO);
    expect(parseVMRuntime({ metadata: {} })).toEqual(ZERO);
  });

  it("TestVMRuntimeParseMalformedVNCPort", () => {
    expect(parseVMRuntime(withVNC("not-a-number")).vncPort).toBe(0);
  });

  it("reads vmID and IP raw", () => {
    expect(parseVMRuntime({ metadata: { annotations: { [VMID]: " id ", [IP]: "not-an-ip" } } })).toEqual({
      vmID: " id ",
      ip: "not-an-ip",
      vncPort: 0,
    });
  });

  // strconv.ParseInt(v, 10, 32); any error leaves 0 (go-contract.md §2.3, executed in Go).
  it.each<[string, number]>([
    ["5900", 5900],
    ["+5900", 5900],
    ["05900", 5900],
    ["0", 0],
    ["-1", -1],
    ["-2147483648", -2147483648],
    ["2147483647", 2147483647],
    ["2147483648", 0],
    ["-2147483649", 0],
    [" 5900", 0],
    ["5900 ", 0],
    ["0x170c", 0],
    ["5_900", 0],
    ["1e3", 0],
    ["5900.0", 0],
    ["not-a-number", 0],
    ["٥٩٠٠", 0],
    ["+", 0],
    ["-", 0],
    ["", 0],
  ])("vnc-port %j reads %d", (raw, want) => {
    const got = parseVMRuntime(withVNC(raw)).vncPort;
    expect(typeof got).toBe("number");
    expect(got).toBe(want);
  });
});

describe("clearVMRuntimeAnnotations / clearVMRuntime", () => {
  it("deletes the ID and the IP and nothing else", () => {
    expect(clearVMRuntimeAnnotations()).toEqual({ [VMID]: null, [IP]: null });
    expect(annotationsMergePatchJSON(clearVMRuntimeAnnotations())).toBe(
      '{"metadata":{"annotations":{"vm.cocoonstack.io/id":null,"vm.cocoonstack.io/ip":null}}}',
    );
  });

  it("clears in place, keeping the VNC port and other keys", () => {
    const pod: Annotated = { metadata: { annotations: { [VMID]: "vm-1", [IP]: "10.0.0.7", [VNC]: "5900", other: "x" } } };
    clearVMRuntime(pod);
    expect(pod.metadata?.annotations).toEqual({ [VNC]: "5900", other: "x" });
    expect(parseVMRuntime(pod)).toEqual({ ...ZERO, vncPort: 5900 });
  });

  it("leaves a missing annotations map missing", () => {
    const pod: Annotated = { metadata: {} };
    clearVMRuntime(pod);
    expect(pod).toEqual({ metadata: {} });
  });
});

import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import type { Annotated } from "./annotations.js";
import { type AgentSpecLike, type ToolboxSpecLike, fromAgentSpec, fromToolboxSpec } from "./from-spec.js";
import { type VMSpec, applyVMSpec, parseVMSpec } from "./vmspec.js";

function expectCode(code: "ERR_INVALID_INTEGER" | "ERR_INVALID_QUANTITY", fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isCocoonError(caught, code), String(caught)).toBe(true);
}

describe("fromAgentSpec", () => {
  it("TestFromAgentSpec: maps every field", () => {
    const input: AgentSpecLike = {
      image: "ghcr.io/cocoonstack/cocoon/ubuntu:24.04",
      mode: "run",
      os: "windows",
      backend: "firecracker",
      connType: "rdp",
      network: "default",
      forcePull: true,
      noDirectIO: true,
      storage: "100G",
    };
    const want: VMSpec = {
      vmName: "vk-prod-demo-0",
      image: "ghcr.io/cocoonstack/cocoon/ubuntu:24.04",
      mode: "run",
      os: "windows",
      storage: "100G",
      network: "default",
      snapshotPolicy: "always",
      forkFrom: "vk-prod-demo-main-0",
      managed: true,
      forcePull: true,
      noDirectIO: true,
      connType: "rdp",
      backend: "firecracker",
      probePort: "",
    };
    expect(fromAgentSpec(input, "vk-prod-demo-0", "always", "vk-prod-demo-main-0")).toEqual(want);
  });

  it("TestFromAgentSpecAppliesEnumDefaults: empty enums take the CRD defaults; agents are managed", () => {
    expect(fromAgentSpec({ image: "img" }, "vm-0", "", "")).toEqual({
      vmName: "vm-0",
      image: "img",
      mode: "clone",
      os: "linux",
      storage: "",
      network: "",
      snapshotPolicy: "always",
      forkFrom: "",
      managed: true,
      forcePull: false,
      noDirectIO: false,
      connType: "",
      backend: "cloud-hypervisor",
      probePort: "",
    } satisfies VMSpec);
  });

  it.each<[string, Partial<AgentSpecLike>, string | undefined, Partial<VMSpec>]>([
    [
      "explicit empty strings default too",
      { mode: "", os: "", backend: "" },
      "",
      { mode: "clone", os: "linux", backend: "cloud-hypervisor", snapshotPolicy: "always" },
    ],
    ["undefined snapshot policy defaults to always", {}, undefined, { snapshotPolicy: "always" }],
    ["the policy comes from the argument", {}, "never", { snapshotPolicy: "never" }],
    [
      "invalid enums pass through",
      { mode: "fork", os: "plan9", backend: "qemu", connType: "telnet" },
      "sometimes",
      { mode: "fork", os: "plan9", backend: "qemu", connType: "telnet", snapshotPolicy: "sometimes" },
    ],
    ["connType has no default", { connType: "" }, "always", { connType: "" }],
    ["macos passes through", { os: "macos" }, "always", { os: "macos" }],
    ["probe port 22", { probePort: 22 }, "always", { probePort: "22" }],
    ["probe port 0 is unset", { probePort: 0 }, "always", { probePort: "" }],
    ["negative probe port is unset", { probePort: -1 }, "always", { probePort: "" }],
    ["int32 max probe port", { probePort: 2147483647 }, "always", { probePort: "2147483647" }],
    ["false flags stay false", { forcePull: false, noDirectIO: false }, "always", { forcePull: false, noDirectIO: false }],
  ])("%s", (_name, fields, snapshotPolicy, want) => {
    const got = fromAgentSpec({ image: "img", ...fields }, "vm", snapshotPolicy, "");
    expect(got).toMatchObject(want);
    expect(got.managed).toBe(true);
  });

  it("forkFrom is passed verbatim", () => {
    expect(fromAgentSpec({ image: "i" }, "vk-ns-cs-2", "always", "vk-ns-cs-0").forkFrom).toBe("vk-ns-cs-0");
  });

  it.each<[string, AgentSpecLike["storage"], string]>([
    ["missing storage", undefined, ""],
    ["null storage", null, ""],
    ['zero quantity is written as "0"', "0", "0"],
    ["integer storage", 0, "0"],
    ["canonical input is kept", "100G", "100G"],
    ["1000M is 1G", "1000M", "1G"],
    ["1024Mi is 1Gi", "1024Mi", "1Gi"],
    ["1.5Gi is 1536Mi", "1.5Gi", "1536Mi"],
  ])("storage: %s", (_name, storage, want) => {
    expect(fromAgentSpec({ image: "i", storage }, "vm", "always", "").storage).toBe(want);
  });

  it("storage that is not a quantity throws ERR_INVALID_QUANTITY", () => {
    expectCode("ERR_INVALID_QUANTITY", () => fromAgentSpec({ image: "i", storage: "1K" }, "vm", "always", ""));
  });

  it.each<[string, number]>([
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["2147483648 (past int32)", 2147483648],
  ])("probe port %s throws ERR_INVALID_INTEGER", (_name, probePort) => {
    expectCode("ERR_INVALID_INTEGER", () => fromAgentSpec({ image: "i", probePort }, "vm", "always", ""));
  });
});

describe("fromToolboxSpec", () => {
  it("TestFromToolboxSpec: maps every field", () => {
    const input: ToolboxSpecLike = {
      image: "ghcr.io/cocoonstack/cocoon/toolbox:latest",
      mode: "clone",
      backend: "cloud-hypervisor",
      connType: "ssh",
      network: "default",
      noDirectIO: true,
    };
    expect(fromToolboxSpec(input, "vk-prod-demo-shell", "main-only")).toEqual({
      vmName: "vk-prod-demo-shell",
      image: "ghcr.io/cocoonstack/cocoon/toolbox:latest",
      mode: "clone",
      os: "linux",
      storage: "",
      network: "default",
      snapshotPolicy: "main-only",
      forkFrom: "",
      managed: true,
      forcePull: false,
      noDirectIO: true,
      connType: "ssh",
      backend: "cloud-hypervisor",
      probePort: "",
    } satisfies VMSpec);
  });

  it("TestFromToolboxSpecStaticIsUnmanaged", () => {
    expect(fromToolboxSpec({ mode: "static" }, "vk-x-static-tb", "").managed).toBe(false);
  });

  // TestFromToolboxSpecManagedByMode, plus go-contract.md §2.3: compared on the raw mode.
  it.each<[string, string | undefined, boolean, string]>([
    ["run", "run", true, "run"],
    ["clone", "clone", true, "clone"],
    ["static", "static", false, "static"],
    ["empty mode is managed and defaults to run", "", true, "run"],
    ["missing mode is managed and defaults to run", undefined, true, "run"],
    ["invalid mode is managed and passes through", "garbage", true, "garbage"],
    ["Static (case differs) is managed", "Static", true, "Static"],
  ])("%s", (_name, mode, managed, wantMode) => {
    const got = fromToolboxSpec(mode === undefined ? {} : { mode }, "vm", "always");
    expect(got.managed).toBe(managed);
    expect(got.mode).toBe(wantMode);
  });

  it("defaults like an agent, has no fork source and a missing image is empty", () => {
    expect(fromToolboxSpec({}, "vk-ns-cs-tb", undefined)).toEqual({
      vmName: "vk-ns-cs-tb",
      image: "",
      mode: "run",
      os: "linux",
      storage: "",
      network: "",
      snapshotPolicy: "always",
      forkFrom: "",
      managed: true,
      forcePull: false,
      noDirectIO: false,
      connType: "",
      backend: "cloud-hypervisor",
      probePort: "",
    } satisfies VMSpec);
  });

  it.each<[string, Partial<ToolboxSpecLike>, Partial<VMSpec>]>([
    [
      "windows static with storage and probe port",
      { os: "windows", mode: "static", storage: "8Gi", probePort: 3389 },
      { os: "windows", mode: "static", storage: "8Gi", probePort: "3389", managed: false },
    ],
    ["probe port 0 is unset", { probePort: 0 }, { probePort: "" }],
    ["invalid os passes through", { os: "beos" }, { os: "beos" }],
    ["force pull", { forcePull: true }, { forcePull: true }],
  ])("%s", (_name, fields, want) => {
    expect(fromToolboxSpec(fields, "vm", "always")).toMatchObject(want);
  });
});

describe("drift detection: parseVMSpec(apply(fromXSpec(...))) is fromXSpec(...)", () => {
  it.each<[string, VMSpec]>([
    [
      "full agent",
      fromAgentSpec(
        {
          image: "img",
          mode: "run",
          os: "windows",
          storage: "100G",
          network: "n",
          forcePull: true,
          noDirectIO: true,
          connType: "rdp",
          backend: "firecracker",
          probePort: 22,
        },
        "vk-a-b-1",
        "main-only",
        "vk-a-b-0",
      ),
    ],
    ["default agent", fromAgentSpec({ image: "img" }, "vk-a-b-0", "", "")],
    ["static toolbox", fromToolboxSpec({ image: "img", mode: "static" }, "vk-a-b-tb", "never")],
    ["default toolbox", fromToolboxSpec({}, "vk-a-b-tb", "")],
  ])("%s", (_name, spec) => {
    const pod: Annotated = {};
    applyVMSpec(pod, spec);
    expect(parseVMSpec(pod)).toEqual(spec);
  });
});

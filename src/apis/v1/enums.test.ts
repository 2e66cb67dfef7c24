import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  agentModeOrDefault,
  backendOrDefault,
  hibernatePolicyOrDefault,
  isAgentMode,
  isBackend,
  isCocoonHibernationPhase,
  isCocoonSetPhase,
  isConnType,
  isHibernatePolicy,
  isHibernationDesire,
  isOSType,
  isSnapshotPolicy,
  isToolboxMode,
  osTypeOrDefault,
  snapshotPolicyOrDefault,
  toolboxModeOrDefault,
} from "./enum-guards.js";
import {
  AgentMode,
  Backend,
  CocoonHibernationPhase,
  CocoonSetPhase,
  ConnType,
  HibernatePolicy,
  HibernationDesire,
  OSType,
  SnapshotPolicy,
  ToolboxMode,
} from "./enums.js";
import * as Schemas from "./enum-schemas.js";

describe("enum values (Go constants)", () => {
  it.each([
    ["AgentMode", AgentMode, { Clone: "clone", Run: "run" }],
    ["ToolboxMode", ToolboxMode, { Run: "run", Clone: "clone", Static: "static" }],
    ["OSType", OSType, { Linux: "linux", Windows: "windows", Android: "android", Macos: "macos" }],
    ["SnapshotPolicy", SnapshotPolicy, { Always: "always", MainOnly: "main-only", Never: "never" }],
    ["HibernatePolicy", HibernatePolicy, { Retain: "retain", Release: "release" }],
    [
      "CocoonSetPhase",
      CocoonSetPhase,
      {
        Pending: "Pending",
        Running: "Running",
        Scaling: "Scaling",
        Suspending: "Suspending",
        Suspended: "Suspended",
        Waking: "Waking",
        Migrating: "Migrating",
        Failed: "Failed",
      },
    ],
    ["ConnType", ConnType, { SSH: "ssh", RDP: "rdp", VNC: "vnc", ADB: "adb" }],
    ["Backend", Backend, { CloudHypervisor: "cloud-hypervisor", Firecracker: "firecracker" }],
    ["HibernationDesire", HibernationDesire, { Hibernate: "Hibernate", Wake: "Wake" }],
    [
      "CocoonHibernationPhase",
      CocoonHibernationPhase,
      {
        Pending: "Pending",
        Hibernating: "Hibernating",
        Hibernated: "Hibernated",
        Waking: "Waking",
        Active: "Active",
        Failed: "Failed",
      },
    ],
  ])("%s has exactly Go's constants, in CRD enum order", (_name, actual, expected) => {
    expect(Object.entries(actual)).toEqual(Object.entries(expected));
  });
});

type ValidityRow = [name: string, guard: (value: unknown) => boolean, schema: z.ZodType, cases: [string, boolean][]];

// Go enums_test.go: TestAgentModeIsValid ... TestBackendIsValid, plus macos and the types Go tests do not cover.
describe.each<ValidityRow>([
  [
    "AgentMode",
    isAgentMode,
    Schemas.AgentModeSchema,
    [
      ["clone", true],
      ["run", true],
      ["", false],
      ["unknown", false],
    ],
  ],
  [
    "ToolboxMode",
    isToolboxMode,
    Schemas.ToolboxModeSchema,
    [
      ["run", true],
      ["clone", true],
      ["static", true],
      ["", false],
      ["unknown", false],
    ],
  ],
  [
    "OSType",
    isOSType,
    Schemas.OSTypeSchema,
    [
      ["linux", true],
      ["windows", true],
      ["android", true],
      ["macos", true],
      ["", false],
      ["freebsd", false],
      ["Linux", false],
    ],
  ],
  [
    "SnapshotPolicy",
    isSnapshotPolicy,
    Schemas.SnapshotPolicySchema,
    [
      ["always", true],
      ["main-only", true],
      ["never", true],
      ["", false],
      ["sometimes", false],
    ],
  ],
  [
    "HibernatePolicy",
    isHibernatePolicy,
    Schemas.HibernatePolicySchema,
    [
      ["retain", true],
      ["release", true],
      ["", false],
      ["Release", false],
    ],
  ],
  [
    "ConnType",
    isConnType,
    Schemas.ConnTypeSchema,
    [
      ["ssh", true],
      ["rdp", true],
      ["vnc", true],
      ["adb", true],
      ["", false],
      ["telnet", false],
      ["SSH", false],
    ],
  ],
  [
    "Backend",
    isBackend,
    Schemas.BackendSchema,
    [
      ["cloud-hypervisor", true],
      ["firecracker", true],
      ["", false],
      ["qemu", false],
    ],
  ],
  [
    "CocoonSetPhase",
    isCocoonSetPhase,
    Schemas.CocoonSetPhaseSchema,
    [
      ["Running", true],
      ["Waking", true],
      ["running", false],
      ["", false],
    ],
  ],
  [
    "HibernationDesire",
    isHibernationDesire,
    Schemas.HibernationDesireSchema,
    [
      ["Hibernate", true],
      ["Wake", true],
      ["wake", false],
      ["", false],
    ],
  ],
  [
    "CocoonHibernationPhase",
    isCocoonHibernationPhase,
    Schemas.CocoonHibernationPhaseSchema,
    [
      ["Active", true],
      ["Hibernated", true],
      ["active", false],
      ["", false],
    ],
  ],
])("%s.IsValid", (_name, guard, schema, cases) => {
  it.each(cases)("%j → %s", (input, want) => {
    expect(guard(input)).toBe(want);
    expect(schema.safeParse(input).success).toBe(want);
  });

  it.each([undefined, null, 1, {}, ["x"]])("rejects the non-string %j", (input) => {
    expect(guard(input)).toBe(false);
  });
});

// Go enums_test.go: TestEnumDefaults (cmp.Or: "" takes the default, anything else passes through).
describe.each([
  ["AgentMode", agentModeOrDefault, "clone", "run"],
  ["ToolboxMode", toolboxModeOrDefault, "run", "static"],
  ["OSType", osTypeOrDefault, "linux", "windows"],
  ["SnapshotPolicy", snapshotPolicyOrDefault, "always", "never"],
  ["HibernatePolicy", hibernatePolicyOrDefault, "retain", "release"],
  ["Backend", backendOrDefault, "cloud-hypervisor", "firecracker"],
] as const)("%s.Default", (_name, orDefault, fallback, other) => {
  it("gives the default for an empty value", () => {
    expect(orDefault("")).toBe(fallback);
  });
  it("gives the default for a missing value", () => {
    expect(orDefault(undefined)).toBe(fallback);
    expect(orDefault()).toBe(fallback);
  });
  it("passes a set value through", () => {
    expect(orDefault(other)).toBe(other);
  });
  it("passes an unknown value through without validating it", () => {
    expect(orDefault("qemu" as string)).toBe("qemu");
  });
});

describe("Backend.Default", () => {
  it('keeps Backend("qemu") as "qemu"', () => {
    expect(backendOrDefault("qemu" as string)).toBe("qemu");
  });
  it("is case-sensitive: an upper-case value is not empty, so it passes through", () => {
    expect(osTypeOrDefault("Linux" as string)).toBe("Linux");
  });
});

import { describe, expect, it } from "vitest";
import { AgentMode, Backend, OSType, SnapshotPolicy, ToolboxMode } from "../../apis/v1/enums.js";
import {
  DEFAULT_AGENT_MODE,
  DEFAULT_BACKEND,
  DEFAULT_OS,
  DEFAULT_SNAPSHOT_POLICY,
  DEFAULT_TOOLBOX_MODE,
  SNAPSHOT_POLICY_MAIN_ONLY,
  SNAPSHOT_POLICY_NEVER,
  TOOLBOX_MODE_STATIC,
  stringOr,
} from "./defaults.js";

// ./meta keeps these as literals so it loads without zod; pin them to the ./apis/v1 enums.
describe("defaults", () => {
  it.each<[string, string, string]>([
    ["DEFAULT_AGENT_MODE", DEFAULT_AGENT_MODE, AgentMode.Clone],
    ["DEFAULT_TOOLBOX_MODE", DEFAULT_TOOLBOX_MODE, ToolboxMode.Run],
    ["DEFAULT_OS", DEFAULT_OS, OSType.Linux],
    ["DEFAULT_SNAPSHOT_POLICY", DEFAULT_SNAPSHOT_POLICY, SnapshotPolicy.Always],
    ["DEFAULT_BACKEND", DEFAULT_BACKEND, Backend.CloudHypervisor],
    ["SNAPSHOT_POLICY_NEVER", SNAPSHOT_POLICY_NEVER, SnapshotPolicy.Never],
    ["SNAPSHOT_POLICY_MAIN_ONLY", SNAPSHOT_POLICY_MAIN_ONLY, SnapshotPolicy.MainOnly],
    ["TOOLBOX_MODE_STATIC", TOOLBOX_MODE_STATIC, ToolboxMode.Static],
  ])("%s equals the apis/v1 enum value", (_name, literal, enumValue) => {
    expect(literal).toBe(enumValue);
  });
});

describe("stringOr (Go cmp.Or on strings)", () => {
  it.each<[string | undefined, string, string]>([
    ["x", "d", "x"],
    ["", "d", "d"],
    [undefined, "d", "d"],
    [" ", "d", " "],
  ])("stringOr(%j, %j) is %j", (value, fallback, want) => {
    expect(stringOr(value, fallback)).toBe(want);
  });
});

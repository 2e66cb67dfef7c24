import { describe, expect, it } from "vitest";
import { Role } from "./keys.js";
import { shouldSnapshotVM } from "./snapshot-policy.js";

describe("shouldSnapshotVM (Go TestShouldSnapshotVM)", () => {
  it.each<[string, string, string, boolean]>([
    ["always/main", "always", Role.Main, true],
    ["always/sub-agent", "always", Role.SubAgent, true],
    ["always/toolbox", "always", Role.Toolbox, true],
    ["always/empty-role", "always", "", true],
    ["empty-policy-defaults-to-always", "", Role.Toolbox, true],

    ["never/main", "never", Role.Main, false],
    ["never/sub-agent", "never", Role.SubAgent, false],
    ["never/toolbox", "never", Role.Toolbox, false],
    ["never/empty-role", "never", "", false],

    ["main-only/main", "main-only", Role.Main, true],
    ["main-only/sub-agent", "main-only", Role.SubAgent, false],
    ["main-only/toolbox", "main-only", Role.Toolbox, false],
    ["main-only/empty-role", "main-only", "", false],
  ])("%s", (_name, snapshotPolicy, role, want) => {
    expect(shouldSnapshotVM({ snapshotPolicy }, role)).toBe(want);
  });

  // An older stored contract_test.go passed the VM name instead of a role; its rows carry over with
  // the role that name has (slot 0 main, slot > 0 sub-agent, a toolbox name toolbox).
  it.each<[string, string, string, boolean]>([
    ["always/slot0", "always", Role.Main, true],
    ["always/slot3", "always", Role.SubAgent, true],
    ["always/toolbox", "always", Role.Toolbox, true],
    ["empty-defaults-to-always", "", Role.Main, true],
    ["empty-defaults-to-always/sub", "", Role.SubAgent, true],
    ["never/slot0", "never", Role.Main, false],
    ["never/slot3", "never", Role.SubAgent, false],
    ["never/toolbox", "never", Role.Toolbox, false],
    ["main-only/slot0", "main-only", Role.Main, true],
    ["main-only/slot3", "main-only", Role.SubAgent, false],
    ["main-only/toolbox", "main-only", Role.Toolbox, false],
  ])("legacy %s", (_name, snapshotPolicy, role, want) => {
    expect(shouldSnapshotVM({ snapshotPolicy }, role)).toBe(want);
  });

  // go-contract.md §8.4: Default() never validates, so unknown policies snapshot.
  it.each<[string, string, string, boolean]>([
    ["unknown policy snapshots the main agent", "garbage", Role.Main, true],
    ["unknown policy snapshots a toolbox", "garbage", Role.Toolbox, true],
    ["policy is case-sensitive: Never is unknown", "Never", Role.Main, true],
    ["policy is case-sensitive: MAIN-ONLY is unknown", "MAIN-ONLY", Role.SubAgent, true],
    ["role is case-sensitive", "main-only", "Main", false],
  ])("%s", (_name, snapshotPolicy, role, want) => {
    expect(shouldSnapshotVM({ snapshotPolicy }, role)).toBe(want);
  });

  it("a spec without a policy defaults to always", () => {
    expect(shouldSnapshotVM({}, Role.SubAgent)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { ConditionSchema } from "./condition.js";
import { CocoonSetStatusSchema } from "./cocoonset-status.js";
import { isK8sDateTime } from "./internal/date-time.js";
import { pathsOf } from "./internal/test-fixtures.js";

const READY = { type: "Ready", status: "True", reason: "AllUp", message: "", lastTransitionTime: "2026-08-12T10:00:00Z" };

describe("ConditionSchema (metav1.Condition)", () => {
  it("accepts a full condition and keeps it as written", () => {
    const condition = { ...READY, observedGeneration: 3 };
    expect(ConditionSchema.parse(condition)).toEqual(condition);
  });

  it.each(["type", "status", "reason", "message", "lastTransitionTime"])("requires %s", (key) => {
    const { [key as keyof typeof READY]: _dropped, ...rest } = READY;
    expect(pathsOf(ConditionSchema.safeParse(rest))).toEqual([key]);
  });

  it.each([
    ["type", "Not Camel"],
    ["type", `${"a".repeat(311)}/Ready`],
    ["type", "Example.com/Ready"],
    ["type", ""],
    ["status", "true"],
    ["reason", ""],
    ["reason", "1Bad"],
    ["reason", "Bad-Reason"],
    ["reason", `R${"x".repeat(1024)}`],
    ["message", "m".repeat(32769)],
    ["observedGeneration", -1],
    ["lastTransitionTime", "yesterday"],
  ])("rejects %s = %j", (key, value) => {
    expect(new Set(pathsOf(ConditionSchema.safeParse({ ...READY, [key]: value })))).toEqual(new Set([key]));
  });

  it.each([
    ["type", "example.com/Ready"],
    ["type", "cocoonset.cocoonstack.io/Hibernated_2"],
    ["reason", "A"],
    ["reason", "Some_Reason,With:Colons"],
    ["message", "m".repeat(32768)],
    ["observedGeneration", 0],
    ["type", `${"a".repeat(310)}/Ready`],
  ])("accepts %s = %j", (key, value) => {
    expect(ConditionSchema.safeParse({ ...READY, [key]: value }).success).toBe(true);
  });

  it("rejects two conditions of the same type in a status", () => {
    expect(pathsOf(CocoonSetStatusSchema.safeParse({ conditions: [READY, { ...READY, status: "False" }] }))).toEqual(["conditions.1"]);
  });
});

describe("lastTransitionTime: the apiserver's date-time format (strfmt.IsDateTime)", () => {
  it.each([
    ["2026-08-12T10:00:00Z", true],
    ["2026-08-12T10:00:00.123456789Z", true],
    ["2026-08-12t10:00:00z", true],
    ["2026-08-12T10:00:00+02:00", true],
    ["2026-08-12T10:00:00-07:30", true],
    ["2024-02-29T00:00:00Z", true],
    ["2026-08-12T23:59:59Z", true],
    ["2026-08-12T10:00:00", false],
    ["2026-08-12T10:00Z", false],
    ["2026-08-12 10:00:00Z", false],
    ["2026-08-12T10:00:00+0200", false],
    ["2023-02-29T00:00:00Z", false],
    ["2026-04-31T00:00:00Z", false],
    ["2026-13-01T00:00:00Z", false],
    ["2026-08-12T24:00:00Z", false],
    ["2026-08-12T10:60:00Z", false],
    ["2026-08-12T10:00:60Z", false],
    ["26-08-12T10:00:00Z", false],
    ["", false],
  ])("%j → %s", (text, ok) => {
    expect(isK8sDateTime(text)).toBe(ok);
    expect(ConditionSchema.safeParse({ ...READY, lastTransitionTime: text }).success).toBe(ok);
  });
});

import type { V1Condition } from "@kubernetes/client-node";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  CONDITION_TYPE_READY,
  type StatusCondition,
  findStatusCondition,
  formatConditionTime,
  isStatusConditionTrue,
  newReadyCondition,
  setStatusCondition,
} from "./conditions.js";
import { ConditionStatus } from "../apis/v1/condition-status.js";

const NOW = new Date("2026-08-12T10:00:00.789Z");
const EARLIER = "2026-08-11T09:00:00Z";
const GIVEN = "2026-08-12T08:30:00Z";

describe("newReadyCondition", () => {
  it("builds Go's NewReadyCondition without a lastTransitionTime", () => {
    expect(newReadyCondition(7, "True", "AllReady", "3/3 ready")).toStrictEqual({
      type: "Ready",
      status: "True",
      reason: "AllReady",
      message: "3/3 ready",
      observedGeneration: 7,
    });
    expect(CONDITION_TYPE_READY).toBe("Ready");
    expect(ConditionStatus).toStrictEqual({ True: "True", False: "False", Unknown: "Unknown" });
  });
});

describe("formatConditionTime", () => {
  it("prints RFC3339 UTC at second precision", () => {
    expect(formatConditionTime(NOW)).toBe("2026-08-12T10:00:00Z");
    expect(formatConditionTime(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05Z");
  });
});

const ready = (status: string, reason: string, extra: Partial<StatusCondition> = {}): StatusCondition => ({
  type: "Ready",
  status,
  reason,
  message: "m",
  observedGeneration: 1,
  ...extra,
});

describe("setStatusCondition", () => {
  it.each([
    {
      name: "should-add",
      start: [ready("True", "R", { lastTransitionTime: EARLIER, type: "First" })],
      set: ready("True", "R"),
      want: [
        ready("True", "R", { lastTransitionTime: EARLIER, type: "First" }),
        ready("True", "R", { lastTransitionTime: "2026-08-12T10:00:00Z" }),
      ],
      changed: true,
    },
    {
      name: "use-supplied-time (new type)",
      start: [],
      set: ready("True", "R", { lastTransitionTime: GIVEN }),
      want: [ready("True", "R", { lastTransitionTime: GIVEN })],
      changed: true,
    },
    {
      name: "update-fields (status unchanged keeps the time)",
      start: [ready("True", "Old", { lastTransitionTime: EARLIER })],
      set: ready("True", "New", { message: "m2", observedGeneration: 3, lastTransitionTime: GIVEN }),
      want: [ready("True", "New", { message: "m2", observedGeneration: 3, lastTransitionTime: EARLIER })],
      changed: true,
    },
    {
      name: "status change stamps now",
      start: [ready("True", "R", { lastTransitionTime: EARLIER })],
      set: ready("False", "R"),
      want: [ready("False", "R", { lastTransitionTime: "2026-08-12T10:00:00Z" })],
      changed: true,
    },
    {
      name: "status change uses the supplied time",
      start: [ready("True", "R", { lastTransitionTime: EARLIER })],
      set: ready("Unknown", "R", { lastTransitionTime: GIVEN }),
      want: [ready("Unknown", "R", { lastTransitionTime: GIVEN })],
      changed: true,
    },
    {
      name: "nothing to change",
      start: [ready("True", "R", { lastTransitionTime: EARLIER })],
      set: ready("True", "R"),
      want: [ready("True", "R", { lastTransitionTime: EARLIER })],
      changed: false,
    },
    {
      name: "absent observedGeneration equals 0",
      start: [ready("True", "R", { lastTransitionTime: EARLIER, observedGeneration: 0 })],
      set: { type: "Ready", status: "True", reason: "R", message: "m" },
      want: [ready("True", "R", { lastTransitionTime: EARLIER, observedGeneration: 0 })],
      changed: false,
    },
  ])("$name", ({ start, set, want, changed }) => {
    const conditions = structuredClone(start);
    expect(setStatusCondition(conditions, set, NOW)).toBe(changed);
    expect(conditions).toStrictEqual(want);
  });

  it("appends a copy, not the given object", () => {
    const conditions: StatusCondition[] = [];
    const c = newReadyCondition(1, "True", "R", "");
    setStatusCondition(conditions, c, NOW);
    expect(conditions[0]).not.toBe(c);
    expect(c.lastTransitionTime).toBeUndefined();
  });

  it("updates the existing element in place", () => {
    const existing = ready("True", "R", { lastTransitionTime: EARLIER });
    const conditions = [existing];
    setStatusCondition(conditions, ready("False", "R"), NOW);
    expect(conditions[0]).toBe(existing);
    expect(existing.status).toBe("False");
  });

  it("drops observedGeneration when the new condition has none", () => {
    const conditions = [ready("True", "R", { lastTransitionTime: EARLIER, observedGeneration: 5 })];
    expect(setStatusCondition(conditions, { type: "Ready", status: "True", reason: "R", message: "m" }, NOW)).toBe(true);
    expect(conditions[0]).toStrictEqual({ type: "Ready", status: "True", reason: "R", message: "m", lastTransitionTime: EARLIER });
  });

  it("treats an empty string or an invalid Date as unset", () => {
    const a: StatusCondition[] = [];
    setStatusCondition(a, ready("True", "R", { lastTransitionTime: "" }), NOW);
    expect(a[0]?.lastTransitionTime).toBe("2026-08-12T10:00:00Z");
    const b: StatusCondition[] = [ready("True", "R", { lastTransitionTime: EARLIER })];
    setStatusCondition(b, ready("False", "R", { lastTransitionTime: new Date(Number.NaN) }), NOW);
    expect(b[0]?.lastTransitionTime).toBe("2026-08-12T10:00:00Z");
  });

  it("writes Dates truncated to the second into client-node V1Condition lists", () => {
    const conditions: V1Condition[] = [{ type: "Other", status: "True", reason: "R", message: "", lastTransitionTime: new Date(EARLIER) }];
    expect(setStatusCondition(conditions, newReadyCondition(2, "False", "Down", "x"), NOW)).toBe(true);
    expect(conditions[1]?.lastTransitionTime).toStrictEqual(new Date("2026-08-12T10:00:00Z"));
    conditions[1]!.lastTransitionTime = new Date(EARLIER);
    setStatusCondition(conditions, newReadyCondition(2, "True", "Up", "x"), NOW);
    expect(conditions[1]?.lastTransitionTime).toStrictEqual(new Date("2026-08-12T10:00:00Z"));
  });

  it("defaults now to the current time", () => {
    const conditions: StatusCondition[] = [];
    const before = Math.floor(Date.now() / 1000) * 1000;
    setStatusCondition(conditions, newReadyCondition(1, "True", "R", ""));
    const stamped = Date.parse(conditions[0]?.lastTransitionTime as string);
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });

  it("accepts V1Condition lists at the type level", () => {
    expectTypeOf<V1Condition[]>().toExtend<StatusCondition[]>();
    expectTypeOf<V1Condition>().toExtend<StatusCondition>();
  });
});

describe("findStatusCondition and isStatusConditionTrue", () => {
  const conditions = [ready("True", "R", { type: "Ready" }), ready("False", "R", { type: "Synced" })];

  it("finds by exact, case-sensitive type", () => {
    expect(findStatusCondition(conditions, "Synced")).toBe(conditions[1]);
    expect(findStatusCondition(conditions, "ready")).toBeUndefined();
    expect(findStatusCondition(undefined, "Ready")).toBeUndefined();
    expect(findStatusCondition(null, "Ready")).toBeUndefined();
  });

  it.each([
    ["Ready", true],
    ["Synced", false],
    ["Missing", false],
  ])("isStatusConditionTrue(%s) = %s", (type, want) => {
    expect(isStatusConditionTrue(conditions, type)).toBe(want);
  });

  it("requires the exact status True", () => {
    expect(isStatusConditionTrue([ready("true", "R")], "Ready")).toBe(false);
    expect(isStatusConditionTrue(undefined, "Ready")).toBe(false);
  });
});

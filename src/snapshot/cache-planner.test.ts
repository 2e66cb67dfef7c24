import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { type NodeSnapshot, planSnapshotCache } from "./cache-planner.js";

const GiB = 2 ** 30;
const snap = (vmName: string, gib: number, lastUsedMs: number, kept = true): NodeSnapshot => ({
  vmName,
  sizeBytes: gib * GiB,
  lastUsedMs,
  kept,
});
const base = { node: "n1", capacityBytes: 1000 * GiB, nowMs: 1_000_000 };

describe("planSnapshotCache", () => {
  it("evicts unprotected kept snapshots oldest first until the cache fits, and reports capacity minus the cache", () => {
    const snapshots = [snap("a", 40, 300), snap("b", 40, 100), snap("c", 40, 200), snap("live", 500, 0, false)];
    const plan = planSnapshotCache({ ...base, snapshots, hints: [], maxCacheBytes: 60 * GiB });
    expect(plan.evict.map((s) => s.vmName)).toEqual(["b", "c"]);
    expect(plan.cacheBytes).toBe(40 * GiB);
    expect(plan.allocatableBytes).toBe(960 * GiB);
  });

  it("keeps a snapshot a live hint on this node points at, even when it is the oldest; a hint to another node protects nothing", () => {
    const snapshots = [snap("a", 40, 100), snap("b", 40, 200), snap("c", 40, 300)];
    const hints = [
      { vmName: "a", node: "n1" },
      { vmName: "b", node: "n2" },
    ];
    const plan = planSnapshotCache({ ...base, snapshots, hints, maxCacheBytes: 80 * GiB });
    expect(plan.evict.map((s) => s.vmName)).toEqual(["b"]);
  });

  it("evicts a protected snapshot only when the hard cap leaves no other way", () => {
    const snapshots = [snap("a", 50, 100), snap("b", 50, 200), snap("c", 10, 300)];
    const hints = [
      { vmName: "a", node: "n1" },
      { vmName: "b", node: "n1" },
    ];
    const plan = planSnapshotCache({ ...base, snapshots, hints, maxCacheBytes: 60 * GiB });
    expect(plan.evict.map((s) => s.vmName)).toEqual(["c", "a"]);
    expect(plan.cacheBytes).toBe(50 * GiB);
  });

  it("evicts by age only what no hint protects", () => {
    const snapshots = [snap("old", 1, 0), snap("old-hinted", 1, 0), snap("fresh", 1, 999_000)];
    const plan = planSnapshotCache({
      ...base,
      snapshots,
      hints: [{ vmName: "old-hinted", node: "n1" }],
      maxCacheBytes: 100 * GiB,
      maxAgeMs: 10_000,
    });
    expect(plan.evict.map((s) => s.vmName)).toEqual(["old"]);
  });

  it("never reports a negative allocatable size", () => {
    const plan = planSnapshotCache({
      ...base,
      capacityBytes: GiB,
      snapshots: [snap("a", 2, 0)],
      hints: [{ vmName: "a", node: "n1" }],
      maxCacheBytes: 5 * GiB,
    });
    expect(plan.allocatableBytes).toBe(0);
  });

  it.each([
    ["capacityBytes", { capacityBytes: -1 }],
    ["maxCacheBytes", { maxCacheBytes: 1.5 }],
    ["snapshots[0].sizeBytes", { snapshots: [{ vmName: "a", sizeBytes: Number.NaN, lastUsedMs: 0, kept: true }] }],
  ])("refuses a bad %s with ERR_INVALID_ARGUMENT naming it", (field, patch) => {
    const run = () => planSnapshotCache({ ...base, snapshots: [], hints: [], maxCacheBytes: GiB, ...patch });
    expect(run).toThrow(field);
    try {
      run();
    } catch (err) {
      expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    }
  });

  it("holds its promises on any input (property)", () => {
    const arbSnap = fc.record({
      vmName: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      sizeBytes: fc.nat(100),
      lastUsedMs: fc.nat(1000),
      kept: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbSnap, { maxLength: 12 }), fc.subarray(["a", "b", "c"]), fc.nat(300), (snapshots, hinted, max) => {
        const plan = planSnapshotCache({
          node: "n1",
          capacityBytes: 10_000,
          nowMs: 1000,
          snapshots,
          hints: hinted.map((vmName) => ({ vmName, node: "n1" })),
          maxCacheBytes: max,
        });
        const kept = snapshots.filter((s) => s.kept);
        const unprotectedTotal = kept.filter((s) => !hinted.includes(s.vmName)).reduce((n, s) => n + s.sizeBytes, 0);
        const total = kept.reduce((n, s) => n + s.sizeBytes, 0);
        expect(plan.evict.every((s) => s.kept)).toBe(true);
        expect(plan.cacheBytes).toBe(total - plan.evict.reduce((n, s) => n + s.sizeBytes, 0));
        expect(plan.cacheBytes <= max || plan.evict.length === kept.length).toBe(true);
        if (total - unprotectedTotal <= max) expect(plan.evict.some((s) => hinted.includes(s.vmName))).toBe(false);
        expect(plan.allocatableBytes).toBe(Math.max(0, 10_000 - plan.cacheBytes));
      }),
    );
  });
});

describe("planSnapshotCache on garbage", () => {
  it.each([null, undefined, 42, {}, { snapshots: [null], hints: [] }, { snapshots: "x", hints: [] }])(
    "throws ERR_INVALID_ARGUMENT for %j",
    (input) => {
      let caught: unknown;
      try {
        planSnapshotCache(input as never);
      } catch (err) {
        caught = err;
      }
      expect(isCocoonError(caught, "ERR_INVALID_ARGUMENT")).toBe(true);
    },
  );
});

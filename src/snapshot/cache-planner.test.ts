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
    const arbSnaps = fc.uniqueArray(arbSnap, { maxLength: 6, selector: (s) => s.vmName });
    fc.assert(
      fc.property(arbSnaps, fc.subarray(["a", "b", "c"]), fc.nat(300), (snapshots, hinted, max) => {
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

describe("planSnapshotCache refuses what it cannot decide safely", () => {
  const ok = { vmName: "a", sizeBytes: 1, lastUsedMs: 0, kept: true };
  const refusal = (patch: Record<string, unknown>): unknown => {
    try {
      planSnapshotCache({ ...base, snapshots: [], hints: [], maxCacheBytes: GiB, ...patch });
    } catch (err) {
      return err;
    }
    return undefined;
  };

  it.each<[string, Record<string, unknown>, string]>([
    ["a kept that is a string", { snapshots: [{ ...ok, kept: "false" }] }, "snapshots[0].kept must be a boolean, got string"],
    ["a kept that is a number", { snapshots: [ok, { ...ok, vmName: "b", kept: 1 }] }, "snapshots[1].kept must be a boolean, got 1"],
    [
      "a kept that is missing",
      { snapshots: [{ vmName: "a", sizeBytes: 1, lastUsedMs: 0 }] },
      "snapshots[0].kept must be a boolean, got undefined",
    ],
    [
      "a VM name given twice (a live and a kept snapshot)",
      { snapshots: [{ ...ok, kept: false }, { ...ok, vmName: "b" }, ok] },
      'snapshots[2].vmName "a" repeats snapshots[0].vmName',
    ],
    ["an empty VM name", { snapshots: [{ ...ok, vmName: "" }] }, "snapshots[0].vmName must be a non-empty string, got string"],
    ["a VM name that is not a string", { snapshots: [{ ...ok, vmName: 7 }] }, "snapshots[0].vmName must be a non-empty string, got 7"],
    ["a null hint", { hints: [{ vmName: "a", node: "n1" }, null] }, "hints[1] is not an object"],
    ["a hint without a node", { hints: [{ vmName: "a" }] }, "hints[0].node must be a string, got undefined"],
    ["a hint with a null VM name", { hints: [{ vmName: null, node: "n1" }] }, "hints[0].vmName must be a string, got null"],
    ["a node that is not a string", { node: undefined }, "node must be a non-empty string, got undefined"],
    [
      "kept sizes whose sum passes 2^53 - 1",
      {
        snapshots: [
          { ...ok, sizeBytes: 2 ** 52 },
          { ...ok, vmName: "b", sizeBytes: 2 ** 52 },
        ],
      },
      "snapshots[1].sizeBytes takes the kept sizes past 2^53 - 1 bytes",
    ],
    [
      "a size that is a bigint",
      { snapshots: [{ ...ok, sizeBytes: 1n }] },
      "snapshots[0].sizeBytes must be a non-negative integer, got bigint",
    ],
    [
      "a size that is an object",
      { snapshots: [{ ...ok, sizeBytes: { valueOf: () => 1 } }] },
      "snapshots[0].sizeBytes must be a non-negative integer, got object",
    ],
  ])("refuses %s with ERR_INVALID_ARGUMENT naming the field", (_, patch, message) => {
    const err = refusal(patch);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toBe(`snapshot cache: ${message}`);
  });

  it("sums kept sizes up to 2^53 - 1 exactly, and leaves the sizes of live snapshots out of the sum", () => {
    const snapshots = [
      { ...ok, sizeBytes: 2 ** 52 },
      { ...ok, vmName: "b", sizeBytes: 2 ** 52 - 1 },
      { ...ok, vmName: "live", sizeBytes: Number.MAX_SAFE_INTEGER, kept: false },
    ];
    const plan = planSnapshotCache({ ...base, snapshots, hints: [], maxCacheBytes: Number.MAX_SAFE_INTEGER, capacityBytes: 0 });
    expect([plan.evict, plan.cacheBytes]).toEqual([[], Number.MAX_SAFE_INTEGER]);
  });

  it("never evicts a snapshot a live VM uses, and refuses rather than guess, on hostile input (property)", () => {
    const name = fc.constantFrom("a", "b", "c", "d");
    const size = fc.oneof(fc.nat(100), fc.constantFrom(2 ** 52, Number.MAX_SAFE_INTEGER, -1, 0.5, Number.NaN));
    const kept = fc.oneof(fc.boolean(), fc.constantFrom("false", "true", 0, 1, null, undefined));
    const snapshot = fc.oneof(
      { weight: 10, arbitrary: fc.record({ vmName: name, sizeBytes: size, lastUsedMs: fc.nat(1000), kept }) },
      { weight: 1, arbitrary: fc.constantFrom(null, "a", 3) },
    );
    const hint = fc.oneof(
      { weight: 10, arbitrary: fc.record({ vmName: name, node: fc.constantFrom("n1", "n2") }) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
    fc.assert(
      fc.property(
        fc.array(snapshot, { maxLength: 8 }),
        fc.array(hint, { maxLength: 4 }),
        fc.nat(300),
        fc.option(fc.nat(1000)),
        (snapshots, hints, max, maxAgeMs) => {
          const input = {
            node: "n1",
            capacityBytes: 10_000,
            nowMs: 1000,
            snapshots,
            hints,
            maxCacheBytes: max,
            ...(maxAgeMs !== null && { maxAgeMs }),
          };
          let plan;
          try {
            plan = planSnapshotCache(input as never);
          } catch (err) {
            expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
            return;
          }
          const valid = snapshots as NodeSnapshot[];
          const liveNames = new Set(valid.filter((s) => !s.kept).map((s) => s.vmName));
          for (const s of plan.evict) {
            expect(s.kept).toBe(true);
            expect(liveNames.has(s.vmName)).toBe(false);
          }
          expect(new Set(plan.evict).size).toBe(plan.evict.length);
          const keptBytes = valid.filter((s) => s.kept).reduce((n, s) => n + BigInt(s.sizeBytes), 0n);
          expect(BigInt(plan.cacheBytes)).toBe(keptBytes - plan.evict.reduce((n, s) => n + BigInt(s.sizeBytes), 0n));
        },
      ),
      { numRuns: 2000 },
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

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildVirtualNode, type NodeResourcesInput } from "../../src/meta/index.js";

// Rule 7 of issue 33 (buildVirtualNode): a node never advertises more allocatable of any resource
// than its capacity. The kubelet's allocatable is capacity less reservations; we clamp the same way.

const GI = 2 ** 30;
const UNIT: Record<string, bigint> = {
  "": 1n,
  k: 1000n,
  M: 1000n ** 2n,
  G: 1000n ** 3n,
  T: 1000n ** 4n,
  P: 1000n ** 5n,
  E: 1000n ** 6n,
  Ki: 1024n,
  Mi: 1024n ** 2n,
  Gi: 1024n ** 3n,
  Ti: 1024n ** 4n,
  Pi: 1024n ** 5n,
  Ei: 1024n ** 6n,
};

/** The integer a whole-number quantity text (what nodeResources writes) stands for. */
function quantityValue(text: string): bigint {
  const match = /^(\d+)([kMGTPE]i?|Ki)?$/.exec(text);
  if (match === null) throw new Error(`not a whole quantity: ${text}`);
  return BigInt(match[1] ?? "0") * (UNIT[match[2] ?? ""] ?? 0n);
}

const node = (resources: NodeResourcesInput) =>
  buildVirtualNode({ name: "cocoon-a", nodeIP: "10.0.0.4", resources, now: new Date("2026-12-01T00:00:00Z") });

describe("buildVirtualNode never advertises more than its capacity (issue 33, rule 7)", () => {
  it("clamps a cache plan larger than the disk to the disk, less the reserve", () => {
    const { capacity, allocatable } = node({
      cpuCores: 8,
      memoryBytes: 16 * GI,
      storageBytes: 100 * GI,
      snapshotCache: { allocatableBytes: 200 * GI },
    }).status;
    expect(capacity["ephemeral-storage"]).toBe("100Gi");
    expect(allocatable["ephemeral-storage"]).toBe("80Gi");
  });

  it("clamps with no reserve to exactly the capacity", () => {
    const { capacity, allocatable } = node({
      cpuCores: 1,
      memoryBytes: GI,
      storageBytes: 7n * 2n ** 60n,
      snapshotCache: { allocatableBytes: 2n ** 63n - 1n },
      reservePercent: 0,
    }).status;
    expect(allocatable["ephemeral-storage"]).toBe(capacity["ephemeral-storage"]);
    expect(allocatable["ephemeral-storage"]).toBe("7Ei");
  });

  it("keeps a cache plan below the disk as it is", () => {
    const { allocatable } = node({
      cpuCores: 8,
      memoryBytes: 16 * GI,
      storageBytes: 100 * GI,
      snapshotCache: { allocatableBytes: 60 * GI },
    }).status;
    expect(allocatable["ephemeral-storage"]).toBe("48Gi");
  });

  it("refuses a count past Go's int64, whose quantity text would no longer be its value", () => {
    for (const field of ["cpuCores", "memoryBytes", "storageBytes"] as const) {
      const resources = { cpuCores: 1, memoryBytes: GI, storageBytes: GI, snapshotCache: { allocatableBytes: 0 }, [field]: 2n ** 70n };
      expect(() => node(resources)).toThrow(expect.objectContaining({ code: "ERR_INVALID_INTEGER" }));
    }
    const huge = { cpuCores: 1, memoryBytes: GI, storageBytes: GI, snapshotCache: { allocatableBytes: 0 } };
    expect(() => node({ ...huge, hugepages: { pageSizeBytes: 2n ** 21n, totalBytes: 2n ** 63n } })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_INTEGER" }),
    );
    expect(() => node({ ...huge, snapshotCache: { allocatableBytes: 2n ** 63n } })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_INTEGER" }),
    );
  });

  it("holds every allocatable at or under its capacity, for any measured host", () => {
    const count = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), fc.nat().map(BigInt));
    fc.assert(
      fc.property(
        fc.record({
          cpuCores: count,
          memoryBytes: count,
          storageBytes: count,
          snapshotCache: fc.record({ allocatableBytes: count }),
          hugepages: fc.option(fc.record({ pageSizeBytes: fc.constantFrom(2n ** 21n, 2n ** 30n), totalBytes: count }), { nil: undefined }),
          maxPods: fc.option(count, { nil: undefined }),
          reservePercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        }),
        (resources) => {
          const { capacity, allocatable } = node(resources).status;
          expect(Object.keys(allocatable).sort()).toEqual(Object.keys(capacity).sort());
          for (const [name, value] of Object.entries(allocatable)) {
            expect(quantityValue(value), name).toBeLessThanOrEqual(quantityValue(capacity[name] ?? "0"));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

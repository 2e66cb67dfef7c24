/**
 * The virtual kubelet's kept-snapshot cache after a seat release: `planSnapshotCache` over the node's
 * snapshots (the one just kept, and a stale one from an earlier release) and the set's hint.
 */
import { planSnapshotCache, type SnapshotCachePlan } from "../src/snapshot/index.js";
import { show } from "./report.js";
import { NODE } from "./scenario.js";

const GiB = 2 ** 30;
const DAY = 24 * 3600_000;
/** A snapshot kept by an earlier release, unused for 30 days and hinted by no set. */
export const STALE_VM = "vk-demo-old-0";

/** Plans the node's cache with a 10 GiB cap and a 7-day age limit, and shows the answer. */
export function planKeptSnapshots(vmName: string, kept: boolean, hint: string): SnapshotCachePlan {
  const now = Date.now();
  const plan = planSnapshotCache({
    node: NODE,
    snapshots: [
      { vmName, sizeBytes: 8 * GiB, lastUsedMs: now, kept },
      { vmName: STALE_VM, sizeBytes: 8 * GiB, lastUsedMs: now - 30 * DAY, kept: true },
    ],
    hints: [{ vmName, node: hint }],
    capacityBytes: 100 * GiB,
    maxCacheBytes: 10 * GiB,
    maxAgeMs: 7 * DAY,
    nowMs: now,
  });
  show(
    "kubelet",
    `planSnapshotCache: evict [${plan.evict.map((s) => s.vmName).join(", ")}], keep ${vmName} (hinted to ${hint}); ` +
      `allocatable ${plan.allocatableBytes / GiB} GiB of 100`,
  );
  return plan;
}

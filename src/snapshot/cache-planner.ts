import { CocoonError } from "../errors.js";

/** One snapshot on the node's disk. */
export interface NodeSnapshot {
  /** VM the snapshot belongs to. */
  readonly vmName: string;
  /** Bytes it takes on disk. */
  readonly sizeBytes: number;
  /** Last use (push, pull or restore), in ms since the epoch. */
  readonly lastUsedMs: number;
  /** Kept after its VM's seat was released (`keep-snapshot-on-delete`): part of the warm-wake cache. */
  readonly kept: boolean;
}

/** A `hibernated-on-node` hint: the CocoonSet whose main VM `vmName` hopes to wake on `node`. */
export interface HibernationHint {
  /** Main VM of the CocoonSet. */
  readonly vmName: string;
  /** The hint's value: the node it points at. */
  readonly node: string;
}

/** What {@link planSnapshotCache} is given. */
export interface SnapshotCacheInput {
  /** This node's name; only hints pointing here protect a snapshot. */
  readonly node: string;
  /** The node's snapshots, kept or not. */
  readonly snapshots: readonly NodeSnapshot[];
  /** Hints read from the CocoonSets. */
  readonly hints: readonly HibernationHint[];
  /** The node's storage capacity in bytes. */
  readonly capacityBytes: number;
  /** Hard cap on the kept snapshots' total size. */
  readonly maxCacheBytes: number;
  /** Kept snapshots unused for longer than this are evicted (unless a live hint points at them). */
  readonly maxAgeMs?: number;
  /** Now, in ms since the epoch. */
  readonly nowMs: number;
}

/** The planner's answer. */
export interface SnapshotCachePlan {
  /** Kept snapshots to delete, in this order (oldest first within each pass). */
  readonly evict: readonly NodeSnapshot[];
  /** Bytes the kept snapshots take once `evict` is done. */
  readonly cacheBytes: number;
  /** Storage the node should report as allocatable: capacity minus the cache. */
  readonly allocatableBytes: number;
}

function check(value: number, field: string): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot cache: ${field} must be a non-negative integer, got ${String(value)}`);
  }
}

function checkInput(input: SnapshotCacheInput): void {
  if (
    typeof (input as unknown) !== "object" ||
    (input as unknown) === null ||
    !Array.isArray(input.snapshots) ||
    !Array.isArray(input.hints)
  ) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot cache: input needs snapshots and hints arrays");
  }
  check(input.capacityBytes, "capacityBytes");
  check(input.maxCacheBytes, "maxCacheBytes");
  check(input.nowMs, "nowMs");
  if (input.maxAgeMs !== undefined) check(input.maxAgeMs, "maxAgeMs");
  input.snapshots.forEach((s: NodeSnapshot, i) => {
    if (typeof (s as unknown) !== "object" || (s as unknown) === null)
      throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot cache: snapshots[${i}] is not an object`);
    check(s.sizeBytes, `snapshots[${i}].sizeBytes`);
    check(s.lastUsedMs, `snapshots[${i}].lastUsedMs`);
  });
}

const oldestFirst = (a: NodeSnapshot, b: NodeSnapshot): number =>
  a.lastUsedMs - b.lastUsedMs || (a.vmName < b.vmName ? -1 : a.vmName > b.vmName ? 1 : 0);

/**
 * Plans the eviction of kept snapshots (the warm-wake cache) on one node. Pure: it deletes nothing.
 *
 * Passes, each oldest first: kept snapshots past `maxAgeMs` that no live hint protects; then,
 * while the cache exceeds `maxCacheBytes`, unprotected ones; then, only if the cap still cannot
 * be met, protected ones. Snapshots that are not kept belong to live VMs and are never evicted.
 *
 * @throws CocoonError `ERR_INVALID_ARGUMENT` naming a size or time that is not a non-negative integer.
 * @example
 * ```ts
 * const plan = planSnapshotCache({ node: "n1", snapshots, hints, capacityBytes: 500e9, maxCacheBytes: 100e9, nowMs: Date.now() });
 * for (const s of plan.evict) await removeSnapshot(s.vmName);
 * reportAllocatable(plan.allocatableBytes);
 * ```
 */
export function planSnapshotCache(input: SnapshotCacheInput): SnapshotCachePlan {
  checkInput(input);
  const protectedVMs = new Set(input.hints.filter((h) => h.node === input.node).map((h) => h.vmName));
  const kept = input.snapshots.filter((s) => s.kept).sort(oldestFirst);
  const evicted = new Set<NodeSnapshot>();
  let cacheBytes = kept.reduce((n, s) => n + s.sizeBytes, 0);
  const evict = (s: NodeSnapshot): void => {
    evicted.add(s);
    cacheBytes -= s.sizeBytes;
  };
  const maxAge = input.maxAgeMs;
  if (maxAge !== undefined) {
    for (const s of kept) if (!protectedVMs.has(s.vmName) && input.nowMs - s.lastUsedMs > maxAge) evict(s);
  }
  for (const hinted of [false, true]) {
    for (const s of kept) {
      if (cacheBytes <= input.maxCacheBytes) break;
      if (!evicted.has(s) && protectedVMs.has(s.vmName) === hinted) evict(s);
    }
  }
  return { evict: [...evicted], cacheBytes, allocatableBytes: Math.max(0, input.capacityBytes - cacheBytes) };
}

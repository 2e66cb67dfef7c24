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

const refuse = (what: string): CocoonError => new CocoonError("ERR_INVALID_ARGUMENT", `snapshot cache: ${what}`);

/** The type of a value, or the value for a number, without calling anything on it. */
const shown = (value: unknown): string => (typeof value === "number" ? String(value) : value === null ? "null" : typeof value);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function check(value: unknown, field: string): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)
    throw refuse(`${field} must be a non-negative integer, got ${shown(value)}`);
}

function checkString(value: unknown, field: string): void {
  if (typeof value !== "string" || value === "") throw refuse(`${field} must be a non-empty string, got ${shown(value)}`);
}

function checkInput(input: SnapshotCacheInput): void {
  if (!isRecord(input) || !Array.isArray(input.snapshots) || !Array.isArray(input.hints))
    throw refuse("input needs snapshots and hints arrays");
  checkString(input.node, "node");
  check(input.capacityBytes, "capacityBytes");
  check(input.maxCacheBytes, "maxCacheBytes");
  check(input.nowMs, "nowMs");
  if (input.maxAgeMs !== undefined) check(input.maxAgeMs, "maxAgeMs");
  const firstIndex = new Map<string, number>();
  let keptBytes = 0;
  input.snapshots.forEach((s: unknown, i) => {
    if (!isRecord(s)) throw refuse(`snapshots[${i}] is not an object`);
    checkString(s.vmName, `snapshots[${i}].vmName`);
    check(s.sizeBytes, `snapshots[${i}].sizeBytes`);
    check(s.lastUsedMs, `snapshots[${i}].lastUsedMs`);
    if (typeof s.kept !== "boolean") throw refuse(`snapshots[${i}].kept must be a boolean, got ${shown(s.kept)}`);
    const name = s.vmName as string;
    const first = firstIndex.get(name);
    // Two snapshots of one VM name: evicting "the kept one" by name could remove the live VM's.
    if (first !== undefined) throw refuse(`snapshots[${i}].vmName ${JSON.stringify(name)} repeats snapshots[${first}].vmName`);
    firstIndex.set(name, i);
    if (s.kept) keptBytes += s.sizeBytes as number;
    if (keptBytes > Number.MAX_SAFE_INTEGER) throw refuse(`snapshots[${i}].sizeBytes takes the kept sizes past 2^53 - 1 bytes`);
  });
  input.hints.forEach((h: unknown, i) => {
    if (!isRecord(h)) throw refuse(`hints[${i}] is not an object`);
    for (const field of ["vmName", "node"] as const)
      if (typeof h[field] !== "string") throw refuse(`hints[${i}].${field} must be a string, got ${shown(h[field])}`);
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
 * It refuses what it cannot decide safely: a size or time that is not a non-negative integer, kept
 * sizes summing past 2^53 - 1, a `kept` that is not a boolean, a VM name that is empty or repeated
 * (an eviction by name could then hit a live VM), a hint that is not an object of two strings.
 *
 * @throws CocoonError `ERR_INVALID_ARGUMENT` naming the offending field.
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

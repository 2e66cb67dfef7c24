import { CocoonError } from "../../errors.js";
import { QuantityFormat } from "../internal/quantity/suffix.js";
import { formatBinaryInteger, formatDecimal } from "../internal/quantity/canonical.js";

/**
 * The share of each resource vk-cocoon keeps back from `allocatable`, in percent (`VK_RESERVE_PERCENT`'s default).
 *
 * @example
 * ```ts
 * nodeResources({ ...measured, reservePercent: DEFAULT_RESERVE_PERCENT }); // the same as leaving it out
 * ```
 */
export const DEFAULT_RESERVE_PERCENT = 20;

/**
 * The pods a cocoon node takes (`VK_NODE_PODS`' default).
 *
 * @example
 * ```ts
 * nodeResources({ ...measured, maxPods: 2 * DEFAULT_MAX_PODS }).capacity.pods; // => "512"
 * ```
 */
export const DEFAULT_MAX_PODS = 256;

/**
 * What the virtual kubelet measured on its host: the input of {@link nodeResources}. Counts are integers
 * (`number` up to 2^53 − 1, or `bigint` up to 2^63 − 1, Go's `int64`).
 *
 * @example
 * ```ts
 * const measured: NodeResourcesInput = {
 *   cpuCores: 32,
 *   memoryBytes: 128 * 2 ** 30,
 *   storageBytes: 2 * 2 ** 40,
 *   snapshotCache: { allocatableBytes: 1.5 * 2 ** 40 },
 * };
 * ```
 */
export interface NodeResourcesInput {
  /** Host CPUs (`runtime.NumCPU`). */
  readonly cpuCores: number | bigint;
  /** Host memory (`MemTotal`). */
  readonly memoryBytes: number | bigint;
  /** Size of the filesystem holding cocoon's data (`COCOON_ROOT_DIR`): the `ephemeral-storage` capacity. */
  readonly storageBytes: number | bigint;
  /**
   * The kept-snapshot cache plan (`planSnapshotCache`'s answer in `./snapshot` fits): its
   * `allocatableBytes`, less the reserve, is the `ephemeral-storage` allocatable, so the scheduler
   * never counts the disk the warm-wake cache holds. A plan above `storageBytes` counts as `storageBytes`.
   */
  readonly snapshotCache: { readonly allocatableBytes: number | bigint };
  /** Huge pages: the page size names the resource (`hugepages-2Mi`); none when absent or zero. */
  readonly hugepages?: { readonly pageSizeBytes: number | bigint; readonly totalBytes: number | bigint } | undefined;
  /** Pods the node takes; {@link DEFAULT_MAX_PODS} when absent. Never reserved. */
  readonly maxPods?: number | bigint | undefined;
  /** Percent (0–100) kept back from every allocatable but pods; {@link DEFAULT_RESERVE_PERCENT} when absent. */
  readonly reservePercent?: number | undefined;
}

/**
 * A node's `capacity` and `allocatable`, as {@link nodeResources} builds them: resource name to
 * quantity text.
 *
 * @example
 * ```ts
 * const { capacity, allocatable }: NodeResources = nodeResources(measured);
 * allocatable["ephemeral-storage"]; // the cache plan's allocatable, less the reserve
 * ```
 */
export interface NodeResources {
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
}

/**
 * Returns the node's `capacity` and `allocatable` as vk-cocoon computes them
 * (`provider/capacity.go`): capacity is the host (CPU, memory, the storage filesystem's size,
 * huge pages when there are any, pods); allocatable keeps back `reservePercent` of each (rounded
 * down) except pods. `ephemeral-storage` allocatable comes from the kept-snapshot cache plan
 * instead of the filesystem's free bytes, so it is net of the warm-wake cache. No allocatable is
 * ever above its capacity, as the kubelet's never is (capacity less reservations): a cache plan
 * larger than `storageBytes` counts as `storageBytes` (Go takes it as it is). Quantities are Go's
 * text: CPU and pods in decimal (`6`, `1k`), bytes in binary units (`128Gi`, or plain bytes when not
 * a whole unit).
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` for a count that is not an integer (a `number` past
 * 2^53 − 1, a `bigint` past 2^63 − 1);
 * `ERR_INVALID_ARGUMENT` for a negative count or a reserve outside 0–100.
 * @example
 * ```ts
 * const { capacity, allocatable } = nodeResources({
 *   cpuCores: 8,
 *   memoryBytes: 16 * 2 ** 30,
 *   storageBytes: 100 * 2 ** 30,
 *   snapshotCache: { allocatableBytes: 60 * 2 ** 30 },
 * });
 * capacity; // => { cpu: "8", "ephemeral-storage": "100Gi", memory: "16Gi", pods: "256" }
 * allocatable; // => { cpu: "6", "ephemeral-storage": "48Gi", memory: "13743895347", pods: "256" }
 * ```
 */
export function nodeResources(input: NodeResourcesInput): NodeResources {
  const reserve = input.reservePercent ?? DEFAULT_RESERVE_PERCENT;
  if (!Number.isInteger(reserve) || reserve < 0 || reserve > 100) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `node resources: reservePercent must be an integer from 0 to 100, got ${String(reserve)}`,
    );
  }
  const kept = (value: bigint): bigint => (value * BigInt(100 - reserve)) / 100n;
  const cpu = count(input.cpuCores, "cpuCores");
  const memory = count(input.memoryBytes, "memoryBytes");
  const storage = count(input.storageBytes, "storageBytes");
  // The kubelet's allocatable is capacity less reservations, never above it: a cache plan that
  // claims more than the filesystem holds is clamped to the filesystem's size.
  const planned = count(input.snapshotCache.allocatableBytes, "snapshotCache.allocatableBytes");
  const net = planned < storage ? planned : storage;
  const pods = count(input.maxPods ?? DEFAULT_MAX_PODS, "maxPods");
  const capacity: Record<string, string> = { cpu: decimal(cpu), "ephemeral-storage": binary(storage) };
  const allocatable: Record<string, string> = { cpu: decimal(kept(cpu)), "ephemeral-storage": binary(kept(net)) };
  const pageSize = input.hugepages === undefined ? 0n : count(input.hugepages.pageSizeBytes, "hugepages.pageSizeBytes");
  const hugepages = input.hugepages === undefined ? 0n : count(input.hugepages.totalBytes, "hugepages.totalBytes");
  if (pageSize > 0n && hugepages > 0n) {
    const name = `hugepages-${binary(pageSize)}`;
    capacity[name] = binary(hugepages);
    allocatable[name] = binary(kept(hugepages));
  }
  capacity.memory = binary(memory);
  allocatable.memory = binary(kept(memory));
  capacity.pods = decimal(pods);
  allocatable.pods = decimal(pods);
  return { capacity, allocatable };
}

function count(value: number | bigint, field: string): bigint {
  const n = toInteger(value, field);
  if (n < 0n) throw new CocoonError("ERR_INVALID_ARGUMENT", `node resources: ${field} must not be negative, got ${n.toString()}`);
  return n;
}

/** Go's `int64` bound: vk-cocoon's counts are `int64`, and a quantity above it has no Go text. */
const INT64_MAX = 2n ** 63n - 1n;

function toInteger(value: number | bigint, field: string): bigint {
  if (typeof value === "bigint") {
    if (value > INT64_MAX) {
      throw new CocoonError("ERR_INVALID_INTEGER", `node resources: ${field} ${value.toString()} is past Go's int64 range`);
    }
    return value;
  }
  if (!Number.isSafeInteger(value)) {
    throw new CocoonError("ERR_INVALID_INTEGER", `node resources: ${field} ${String(value)} is not a safe integer`);
  }
  return BigInt(value);
}

/** `resource.NewQuantity(n, DecimalSI).String()`. */
const decimal = (n: bigint): string => (n === 0n ? "0" : formatDecimal(false, n.toString(), 0, QuantityFormat.DecimalSI, true));

/** `resource.NewQuantity(n, BinarySI).String()`. */
const binary = (n: bigint): string => (n === 0n ? "0" : formatBinaryInteger(false, n));

import { atoi, formatInt, int64ToNumberOrBigInt, toGoInteger } from "../internal/go/index.js";
import { metadataOf, readString, readValue } from "../internal/safe-read.js";
import type { Int64 } from "./generation.js";
import { Role } from "./keys.js";
import type { PodLike } from "./objects.js";
import { cocoonSetOwnerName, plainCocoonSetOwnerName } from "./owner.js";

/**
 * Returns the VM name of an agent slot: `vk-<namespace>-<deployment>-<slot>`. The slot is an
 * {@link Int64}, so a slot read back by {@link extractAgentSlot} gives the same name again.
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `slot` is not an integer in Go's `int64`
 * range (or is a `number` past the safe-integer range, where it is already imprecise).
 * @example
 * ```ts
 * vmNameForDeployment("prod", "demo", 0); // => "vk-prod-demo-0"
 * ```
 */
export function vmNameForDeployment(namespace: string, deployment: string, slot: Int64): string {
  return `${agentVMNamePrefix(namespace, deployment)}${formatInt(toGoInteger(slot, "agent slot", 64))}`;
}

/** Returns the VM name of a pod that is not an agent slot (a toolbox): `vk-<namespace>-<podName>`. */
export function vmNameForPod(namespace: string, podName: string): string {
  return `vk-${namespace}-${podName}`;
}

/** Returns the prefix shared by every agent VM of a CocoonSet: `vk-<namespace>-<cocoonSet>-`. */
export function agentVMNamePrefix(namespace: string, cocoonSet: string): string {
  return `vk-${namespace}-${cocoonSet}-`;
}

/**
 * Returns the agent slot encoded in `vmName`, or -1 when it is not an agent VM of that set.
 *
 * The suffix after the prefix is parsed like Go's `strconv.Atoi`, so `+1` and `01` are slot 1,
 * and a suffix with a dash (a toolbox such as `db-2`) is -1. The match is textual: dashes in
 * namespace or set names can make it ambiguous, as in Go. The slot is an {@link Int64}, exact up
 * to Go's `int64` maximum, like {@link readCocoonSetGeneration}. Never throws, and takes linear
 * time: an argument that is not a string gives -1.
 *
 * @example
 * ```ts
 * extractAgentSlot("prod", "demo", "vk-prod-demo-3"); // => 3
 * extractAgentSlot("prod", "demo", "vk-prod-demo-db-2"); // => -1
 * ```
 */
export function extractAgentSlot(namespace: string, cocoonSet: string, vmName: string): Int64 {
  if (typeof namespace !== "string" || typeof cocoonSet !== "string" || typeof vmName !== "string") return -1;
  const start = agentPrefixEnd(namespace, cocoonSet, vmName);
  if (start < 0) return -1;
  const short = shortSlot(vmName, start);
  return short >= 0 ? short : longSlot(vmName, start);
}

/** The slot from `start` as Go's `Atoi` reads it, or -1: apart, so the common short slot inlines small. */
function longSlot(vmName: string, start: number): Int64 {
  const suffix = vmName.slice(start);
  if (suffix.includes("-")) return -1;
  const slot = atoi(suffix);
  return slot === undefined || slot < 0n ? -1 : int64ToNumberOrBigInt(slot);
}

/** Where the slot starts in `vmName` after `vk-<namespace>-<cocoonSet>-`, or -1; the prefix is never built. */
function agentPrefixEnd(namespace: string, cocoonSet: string, vmName: string): number {
  const setAt = 4 + namespace.length;
  const end = setAt + cocoonSet.length + 1;
  const matches =
    vmName.length >= end &&
    vmName.charCodeAt(0) === 0x76 && // v
    vmName.charCodeAt(1) === 0x6b && // k
    vmName.charCodeAt(2) === 0x2d &&
    vmName.charCodeAt(setAt - 1) === 0x2d &&
    vmName.charCodeAt(end - 1) === 0x2d &&
    sameAt(vmName, namespace, 3) &&
    sameAt(vmName, cocoonSet, setAt);
  return matches ? end : -1;
}

/** Whether `part` occurs in `s` at `at` (which the caller has checked fits): a loop, cheaper than `startsWith` on short names. */
function sameAt(s: string, part: string, at: number): boolean {
  for (let i = 0; i < part.length; i++) if (s.charCodeAt(at + i) !== part.charCodeAt(i)) return false;
  return true;
}

/**
 * The slot when the suffix from `start` is 1 to 15 ASCII digits (exact as a `number`, which is
 * what Go's `Atoi` and the slow path give for it), else -1 and the caller takes the slow path.
 */
function shortSlot(vmName: string, start: number): number {
  const length = vmName.length - start;
  if (length < 1 || length > 15) return -1;
  let value = 0;
  for (let i = start; i < vmName.length; i++) {
    const digit = vmName.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Returns the role of a slot: negative is a toolbox, 0 the main agent, positive a sub-agent.
 * Never throws: a value that is neither a number nor a bigint, or `NaN`, is no slot (a toolbox).
 *
 * @example
 * ```ts
 * inferRoleFromAgentSlot(0); // => "main"
 * ```
 */
export function inferRoleFromAgentSlot(slot: Int64): Role {
  if ((typeof slot !== "number" && typeof slot !== "bigint") || Number.isNaN(slot) || slot < 0) return Role.Toolbox;
  return slot === 0 || slot === 0n ? Role.Main : Role.SubAgent;
}

type PodMetadata = NonNullable<PodLike["metadata"]>;
type PodOwners = PodMetadata["ownerReferences"];

/**
 * Returns the role of the pod's VM, from its CocoonSet owner and the VM name. Never throws: a
 * pod's fields that are missing or of the wrong type read as Go's zero values.
 *
 * @example
 * ```ts
 * // pod: namespace "prod", owned by CocoonSet "demo"
 * roleForPod(pod, "vk-prod-demo-0"); // => "main"
 * roleForPod(pod, "vk-prod-demo-2"); // => "sub-agent"
 * roleForPod(pod, "vk-prod-demo-browser"); // => "toolbox"
 * ```
 */
export function roleForPod(pod: PodLike, vmName: string): Role {
  let slot: Int64;
  try {
    slot = agentSlotOfPod(pod, vmName);
  } catch {
    // A read threw (a getter, a proxy, a null on the way): read again, each step on its own, as Go's zero values.
    const metadata = metadataOf(pod);
    const namespace = readString(metadata, (m: PodMetadata) => m.namespace);
    const owner = cocoonSetOwnerName(readValue(metadata, (m: PodMetadata) => m.ownerReferences) as PodOwners);
    slot = extractAgentSlot(namespace, owner, vmName);
  }
  return inferRoleFromAgentSlot(slot);
}

/**
 * {@link roleForPod}'s slot with plain reads, which cost half as much as the guarded ones: the same
 * result wherever no read throws (a wrong type reads as the zero value), and a throw otherwise.
 */
function agentSlotOfPod(pod: PodLike, vmName: string): Int64 {
  const metadata = (pod as { metadata: PodMetadata }).metadata;
  const namespace: unknown = metadata.namespace;
  const owner = plainCocoonSetOwnerName(metadata.ownerReferences);
  return extractAgentSlot(typeof namespace === "string" ? namespace : "", owner, vmName);
}

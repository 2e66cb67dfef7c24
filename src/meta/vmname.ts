import type { Int64 } from "./generation.js";
import { pathOf, stringAt } from "./internal/safe-read.js";
import { atoi, formatInt, int64ToNumberOrBigInt, toGoInteger } from "./internal/strconv.js";
import { Role } from "./keys.js";
import type { PodLike } from "./objects.js";
import { cocoonSetOwnerName } from "./owner.js";

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
  const prefix = agentVMNamePrefix(namespace, cocoonSet);
  if (!vmName.startsWith(prefix)) return -1;
  const suffix = vmName.slice(prefix.length);
  if (suffix.includes("-")) return -1;
  const slot = atoi(suffix);
  return slot === undefined || slot < 0n ? -1 : int64ToNumberOrBigInt(slot);
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

type PodOwners = NonNullable<PodLike["metadata"]>["ownerReferences"];

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
  const namespace = stringAt(pod, "metadata", "namespace");
  const owner = cocoonSetOwnerName(pathOf(pod, "metadata", "ownerReferences") as PodOwners);
  return inferRoleFromAgentSlot(extractAgentSlot(namespace, owner, vmName));
}

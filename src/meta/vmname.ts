import { CocoonError } from "../errors.js";
import { atoi } from "./internal/strconv.js";
import { Role } from "./keys.js";
import type { PodLike } from "./objects.js";
import { cocoonSetOwnerName } from "./owner.js";

/**
 * Returns the VM name of an agent slot: `vk-<namespace>-<deployment>-<slot>`.
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `slot` is not an integer.
 * @example
 * ```ts
 * vmNameForDeployment("prod", "demo", 0); // => "vk-prod-demo-0"
 * ```
 */
export function vmNameForDeployment(namespace: string, deployment: string, slot: number): string {
  if (!Number.isSafeInteger(slot)) {
    throw new CocoonError("ERR_INVALID_INTEGER", `agent slot ${String(slot)} is not an integer`);
  }
  return `${agentVMNamePrefix(namespace, deployment)}${slot}`;
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
 * namespace or set names can make it ambiguous, as in Go.
 *
 * @example
 * ```ts
 * extractAgentSlot("prod", "demo", "vk-prod-demo-3"); // => 3
 * extractAgentSlot("prod", "demo", "vk-prod-demo-db-2"); // => -1
 * ```
 */
export function extractAgentSlot(namespace: string, cocoonSet: string, vmName: string): number {
  const prefix = agentVMNamePrefix(namespace, cocoonSet);
  if (!vmName.startsWith(prefix)) return -1;
  const suffix = vmName.slice(prefix.length);
  if (suffix.includes("-")) return -1;
  const slot = atoi(suffix);
  return slot === undefined || slot < 0n ? -1 : Number(slot);
}

/**
 * Returns the role of a slot: negative is a toolbox, 0 the main agent, positive a sub-agent.
 *
 * @example
 * ```ts
 * inferRoleFromAgentSlot(0); // => "main"
 * ```
 */
export function inferRoleFromAgentSlot(slot: number): Role {
  if (slot < 0) return Role.Toolbox;
  return slot === 0 ? Role.Main : Role.SubAgent;
}

/**
 * Returns the role of the pod's VM, from its CocoonSet owner and the VM name.
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
  const namespace = pod.metadata?.namespace ?? "";
  const owner = cocoonSetOwnerName(pod.metadata?.ownerReferences);
  return inferRoleFromAgentSlot(extractAgentSlot(namespace, owner, vmName));
}

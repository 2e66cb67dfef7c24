import { CocoonError } from "../../errors.js";
import { INT32_MAX } from "../../internal/go/index.js";
import { requiredHostnameAffinity } from "../affinity.js";
import { applyAnnotations } from "../annotations.js";
import { fromAgentSpec } from "../from-spec.js";
import { Role } from "../keys.js";
import { vmNameForDeployment } from "../vmname.js";
import { vmSpecAnnotations } from "../vmspec.js";
import { newManagedPod, specOf } from "./managed-pod.js";
import { podResources } from "./resources.js";
import { applyStorageRequest } from "./storage-request.js";
import type { CocoonPod, CocoonSetLike, EnvFromLike, PodEnvFrom } from "./types.js";

function envSource(ref: { name?: string | undefined; optional?: boolean | undefined }): { name?: string; optional?: boolean } {
  const out: { name?: string; optional?: boolean } = {};
  if (ref.name) out.name = ref.name;
  if (ref.optional !== undefined) out.optional = ref.optional;
  return out;
}

/** A copy of the set's `envFrom`, with Go's empty fields left out. */
function podEnvFrom(list: readonly EnvFromLike[]): PodEnvFrom[] {
  return list.map(({ prefix, configMapRef, secretRef }) => {
    const item: PodEnvFrom = {};
    if (prefix) item.prefix = prefix;
    if (configMapRef) item.configMapRef = envSource(configMapRef);
    if (secretRef) item.secretRef = envSource(secretRef);
    return item;
  });
}

/**
 * Returns the pod of an agent slot, exactly as the Go operator builds it (`buildAgentPod`): slot 0
 * is the main agent, a slot from 1 up a sub-agent forking from `mainVMName`. On top of
 * {@link newManagedPod} it writes the VM spec annotations ({@link fromAgentSpec}), the agent's
 * resources with the storage request, `envFrom` and the service account. A non-empty
 * `bindNodeName` binds the pod to that node (`spec.nodeName`); otherwise the main agent of a set
 * with `spec.nodeName` gets a required hostname affinity, so it lands there only if it fits.
 *
 * The set is never changed: the pod holds copies (Go's pod shares the set's resource maps).
 *
 * @param slot - The agent slot, an integer from 0 to 2^31-1 (Go's `int32`).
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for a slot outside that range;
 * `ERR_INVALID_QUANTITY` for a storage or resource that is not a quantity; `ERR_INVALID_INTEGER`
 * for a generation or probe port Go could not hold.
 * @example
 * ```ts
 * const sub = buildAgentPod(set, 1, { mainVMName: "vk-prod-demo-0", bindNodeName: "cocoon-node-1" });
 * sub.spec.nodeName; // => "cocoon-node-1"
 * ```
 */
export function buildAgentPod(
  set: CocoonSetLike,
  slot: number,
  options: { mainVMName?: string | undefined; bindNodeName?: string | undefined } = {},
): CocoonPod {
  if (!Number.isInteger(slot) || slot < 0 || slot > INT32_MAX) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `agent slot ${String(slot)} is not an integer from 0 to ${String(INT32_MAX)}`);
  }
  const spec = specOf(set);
  const { agent } = spec;
  const name = set.metadata?.name ?? "";
  const vmName = vmNameForDeployment(set.metadata?.namespace ?? "", name, slot);
  const forkFrom = slot > 0 ? (options.mainVMName ?? "") : "";
  const pod = newManagedPod(set, `${name}-${String(slot)}`, slot > 0 ? Role.SubAgent : Role.Main, String(slot));
  applyAnnotations(pod, vmSpecAnnotations(fromAgentSpec(agent, vmName, spec.snapshotPolicy, forkFrom)));
  const container = pod.spec.containers[0];
  container.resources = applyStorageRequest(podResources(agent.resources), agent.storage);
  if (agent.envFrom && agent.envFrom.length > 0) {
    // Go's field order: name, image, envFrom, resources.
    pod.spec.containers[0] = {
      name: container.name,
      image: container.image,
      envFrom: podEnvFrom(agent.envFrom),
      resources: container.resources,
    };
  }
  if (agent.serviceAccountName) pod.spec.serviceAccountName = agent.serviceAccountName;
  if (options.bindNodeName) pod.spec.nodeName = options.bindNodeName;
  else if (slot === 0 && spec.nodeName) pod.spec.affinity = requiredHostnameAffinity(spec.nodeName);
  return pod;
}

/**
 * Returns the main agent's pod (slot 0), as the operator creates it when the set has none.
 *
 * @example
 * ```ts
 * const pod = buildMainPod(set);
 * pod.metadata.name; // => "demo-0"
 * ```
 */
export function buildMainPod(set: CocoonSetLike): CocoonPod {
  return buildAgentPod(set, 0);
}

/**
 * Returns a sub-agent's pod: it forks from the main VM and is bound to the main's node, where that
 * VM's snapshot is (the operator passes the main pod's `spec.nodeName`).
 *
 * @param slot - The sub-agent slot, from 1.
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for slot 0 or a slot {@link buildAgentPod} refuses.
 * @example
 * ```ts
 * buildSubAgentPod(set, 1, "vk-prod-demo-0", mainPod.spec?.nodeName);
 * ```
 */
export function buildSubAgentPod(set: CocoonSetLike, slot: number, mainVMName: string, bindNodeName?: string): CocoonPod {
  if (slot === 0) throw new CocoonError("ERR_INVALID_ARGUMENT", "sub-agent slot 0 is the main agent: use buildMainPod");
  return buildAgentPod(set, slot, { mainVMName, bindNodeName });
}

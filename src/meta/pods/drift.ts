import { ToolboxMode } from "../../apis/v1/enums.js";
import { fromAgentSpec, fromToolboxSpec } from "../from-spec.js";
import { cachedQuantityString } from "../internal/quantity-cache.js";
import { quantityNano } from "../internal/quantity-nano.js";
import { Label } from "../keys.js";
import type { PodLike } from "../objects.js";
import { podNodePool } from "../pod.js";
import { parseVMRuntime } from "../vmruntime.js";
import { type VMSpec, parseVMSpec } from "../vmspec.js";
import { setNodePool, specOf } from "./managed-pod.js";
import type { CocoonSetLike, EnvFromLike, ResourcesLike, ToolboxLike } from "./types.js";

/**
 * The live pod fields the drift checks read: client-node's `V1Pod` fits.
 *
 * @example
 * ```ts
 * const live: LivePodLike = await clients.core.readNamespacedPod({ namespace: "demo", name: "sandbox-0" });
 * ```
 */
export interface LivePodLike extends PodLike {
  spec?:
    | (NonNullable<PodLike["spec"]> & {
        serviceAccountName?: string | undefined;
        containers?: readonly { resources?: ResourcesLike | undefined; envFrom?: readonly EnvFromLike[] | undefined }[] | undefined;
      })
    | undefined;
}

const COMPARED_RESOURCES = ["cpu", "memory"] as const;

function vmSpecMatches(got: VMSpec, want: VMSpec): boolean {
  return (
    got.vmName === want.vmName &&
    got.image === want.image &&
    got.mode === want.mode &&
    got.os === want.os &&
    got.storage === want.storage &&
    got.network === want.network &&
    got.snapshotPolicy === want.snapshotPolicy &&
    got.forkFrom === want.forkFrom &&
    got.managed === want.managed &&
    got.forcePull === want.forcePull &&
    got.noDirectIO === want.noDirectIO &&
    got.connType === want.connType &&
    got.backend === want.backend &&
    got.probePort === want.probePort
  );
}

type List = ResourcesLike["limits"];

/** Go's `quantityEqual`: both absent, or both present and equal in value; a pod value Go could not hold never matches. */
function quantityEqual(got: List, want: List, name: string): boolean {
  const a = got && Object.hasOwn(got, name) ? got[name] : undefined;
  const b = want && Object.hasOwn(want, name) ? want[name] : undefined;
  if (a === undefined || b === undefined) return a === b;
  if (a === b) return cachedQuantityString(b) === cachedQuantityString(a); // the same text: one value, once checked
  let nano: bigint;
  try {
    nano = quantityNano(a);
  } catch {
    return false;
  }
  return nano === quantityNano(b);
}

const isEmptyList = (list: List): boolean => list === undefined || Object.keys(list).length === 0;

/** Compares cpu and memory only: the API server copies limits into empty requests, and the storage request is the operator's own. */
function resourcesMatch(pod: LivePodLike, want: ResourcesLike | undefined): boolean {
  const container = pod.spec?.containers?.[0];
  if (container === undefined) return false;
  const got = container.resources;
  const wantLimits = want?.limits;
  const wantRequests = isEmptyList(want?.requests) ? wantLimits : want?.requests;
  for (const name of COMPARED_RESOURCES) {
    if (!quantityEqual(got?.limits, wantLimits, name) || !quantityEqual(got?.requests, wantRequests, name)) return false;
  }
  return true;
}

type EnvSource = EnvFromLike["configMapRef"];

function envSourceEqual(a: EnvSource, b: EnvSource): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof (a as unknown) !== "object" || (a as unknown) === null) return false; // a live pod's JSON source that is not an object matches nothing
  return (a.name ?? "") === (b.name ?? "") && a.optional === b.optional;
}

/**
 * `equality.Semantic.DeepEqual` on two `envFrom` lists: an absent list equals an empty one. The
 * live pod's list comes from the API server as JSON: one that is not a list of objects matches nothing.
 */
function envFromEqual(got: readonly EnvFromLike[] | undefined, want: readonly EnvFromLike[] | undefined): boolean {
  const a: unknown = got ?? [];
  const b = want ?? [];
  if (!Array.isArray(a) || a.length !== b.length) return false;
  return (a as unknown[]).every((entry, i) => {
    if (typeof entry !== "object" || entry === null) return false;
    const item = entry as EnvFromLike;
    const other = b[i] as EnvFromLike;
    return (
      (item.prefix ?? "") === (other.prefix ?? "") &&
      envSourceEqual(item.configMapRef ?? undefined, other.configMapRef ?? undefined) &&
      envSourceEqual(item.secretRef ?? undefined, other.secretRef ?? undefined)
    );
  });
}

/** The pod still selects the set's node pool and snapshot class. */
function schedulingMatches(pod: LivePodLike, set: CocoonSetLike): boolean {
  const selected = pod.spec?.nodeSelector?.[Label.SnapshotCompatibilityClass];
  return (
    podNodePool(pod) === setNodePool(set) &&
    (typeof selected === "string" ? selected : "") === (specOf(set).snapshotCompatibilityClass ?? "")
  );
}

/**
 * Reports whether a live agent pod still matches what {@link buildAgentPod} would build from the
 * set now (Go's `podSpecMatchesAgent`); the operator replaces a pod that does not. Compared: the VM
 * spec annotations (a sub-agent keeps the fork source it was built with, a main agent must have
 * none), cpu and memory limits and requests by value, the service account (empty equals
 * `default`), `envFrom`, and the node pool and snapshot-class selectors.
 *
 * It is meant for the live pod: the API server copies limits into empty requests, and so does the
 * expected side, so a pod as built from a set with limits only does not match until it is stored.
 * Never throws for what the pod holds; a set's bad quantity throws as the builders do.
 *
 * @param slot - The pod's agent slot (0 for the main agent).
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a set quantity that is not one.
 * @example
 * ```ts
 * if (!podSpecMatchesAgent(livePod, set, 0)) await replacePod(livePod, buildMainPod(set));
 * ```
 */
export function podSpecMatchesAgent(pod: LivePodLike, set: CocoonSetLike, slot: number): boolean {
  const spec = specOf(set);
  const { agent } = spec;
  const current = parseVMSpec(pod);
  const want = fromAgentSpec(agent, current.vmName, spec.snapshotPolicy, slot > 0 ? current.forkFrom : "");
  if (!vmSpecMatches(current, want) || !resourcesMatch(pod, agent.resources)) return false;
  if ((pod.spec?.serviceAccountName || "default") !== (agent.serviceAccountName || "default")) return false;
  if (!envFromEqual(pod.spec?.containers?.[0]?.envFrom, agent.envFrom)) return false;
  return schedulingMatches(pod, set);
}

/**
 * Reports whether a live toolbox pod still matches what {@link buildToolboxPod} would build from
 * the set now (Go's `podSpecMatchesToolbox`): the VM spec annotations, cpu and memory by value,
 * the node pool and snapshot-class selectors, and for a `static` toolbox its VM ID, IP and VNC port.
 *
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a set quantity that is not one.
 * @example
 * ```ts
 * for (const toolbox of set.spec?.toolboxes ?? []) {
 *   const live = toolboxPods.get(toolbox.name);
 *   if (live && !podSpecMatchesToolbox(live, set, toolbox)) await replacePod(live, buildToolboxPod(set, toolbox));
 * }
 * ```
 */
export function podSpecMatchesToolbox(pod: LivePodLike, set: CocoonSetLike, toolbox: ToolboxLike): boolean {
  const current = parseVMSpec(pod);
  const want = fromToolboxSpec(toolbox, current.vmName, specOf(set).snapshotPolicy);
  if (!vmSpecMatches(current, want) || !resourcesMatch(pod, toolbox.resources) || !schedulingMatches(pod, set)) return false;
  if (toolbox.mode !== ToolboxMode.Static) return true;
  const runtime = parseVMRuntime(pod);
  return (
    runtime.vmID === (toolbox.staticVMID ?? "") && runtime.ip === (toolbox.staticIP ?? "") && runtime.vncPort === (toolbox.vncPort ?? 0)
  );
}

import { API_VERSION } from "../../apis/v1/groupversion-info.js";
import type { Int64 } from "../generation.js";
import { formatInt, toGoInteger } from "../../internal/go/index.js";
import { Annotation, DEFAULT_NODE_POOL, KIND_COCOONSET, Label, TOLERATION_KEY } from "../keys.js";
import type { CocoonPod, CocoonSetLike, CocoonSetSpecLike } from "./types.js";

/** The one container's name. */
export const AGENT_CONTAINER_NAME = "agent";

/** The container image: never pulled (the virtual kubelet runs a VM), it only satisfies pod validation. */
export const PLACEHOLDER_IMAGE = "ghcr.io/cocoonstack/placeholder:latest";

/** `strconv.FormatInt` of the generation; a safe integer needs no bigint. */
function generationText(generation: Int64): string {
  return typeof generation === "number" && Number.isSafeInteger(generation)
    ? String(generation)
    : formatInt(toGoInteger(generation, "generation", 64));
}

const ZERO_SPEC: CocoonSetSpecLike = { agent: { image: "" } };

/** The set's spec, or Go's zero spec when it has none. */
export function specOf(set: CocoonSetLike): CocoonSetSpecLike {
  return set.spec ?? ZERO_SPEC;
}

/** The node pool a set's pods select: `spec.nodePool`, or `default` when unset or `""`. */
export function setNodePool(set: CocoonSetLike): string {
  return specOf(set).nodePool || DEFAULT_NODE_POOL;
}

/**
 * Returns the skeleton every pod of a CocoonSet starts from (Go's `newManagedPod`): the set,
 * role and slot labels, the generation annotation, the controller owner reference, the node pool
 * and snapshot-class selector, the virtual-kubelet tolerations and the placeholder container.
 *
 * @param podName - The pod's name, e.g. `demo-0` or `demo-db`.
 * @param role - The `cocoonset.cocoonstack.io/role` label, one of {@link Role}.
 * @param slotLabel - The `cocoonset.cocoonstack.io/slot` label: the agent slot, or the toolbox name.
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when the generation is not a Go `int64`.
 * @example
 * ```ts
 * const pod = newManagedPod(set, "demo-0", Role.Main, "0");
 * pod.metadata.ownerReferences[0].controller; // => true
 * ```
 */
export function newManagedPod(set: CocoonSetLike, podName: string, role: string, slotLabel: string): CocoonPod {
  const { name = "", namespace = "", uid = "", generation = 0 } = set.metadata ?? {};
  const nodeSelector: Record<string, string> = { [Label.NodePool]: setNodePool(set) };
  const snapshotClass = specOf(set).snapshotCompatibilityClass;
  if (snapshotClass) nodeSelector[Label.SnapshotCompatibilityClass] = snapshotClass;
  const metadata: CocoonPod["metadata"] = {
    name: podName,
    // Go omits an empty namespace (omitempty); a key added later would come out of order.
    ...(namespace ? { namespace } : {}),
    labels: {
      [Label.CocoonSet]: name,
      [Label.Role]: role,
      [Label.Slot]: slotLabel,
      "app.kubernetes.io/name": name,
    },
    annotations: { [Annotation.CocoonSetGeneration]: generationText(generation) },
    ownerReferences: [{ apiVersion: API_VERSION, kind: KIND_COCOONSET, name, uid, controller: true, blockOwnerDeletion: true }],
  };
  return {
    metadata,
    spec: {
      containers: [{ name: AGENT_CONTAINER_NAME, image: PLACEHOLDER_IMAGE, resources: {} }],
      terminationGracePeriodSeconds: 1,
      nodeSelector,
      tolerations: [
        { key: TOLERATION_KEY, operator: "Exists" },
        { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute" },
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" },
      ],
    },
    status: {},
  };
}

import { CocoonError } from "../errors.js";
import { HOSTNAME_LABEL } from "./keys.js";

/** A node selector term matching one hostname (wire form of `corev1.NodeSelectorTerm`). */
export interface HostnameSelectorTerm {
  matchExpressions: [{ key: typeof HOSTNAME_LABEL; operator: "In"; values: [string] }];
}

/** A pod affinity that prefers one node (assignable to client-node's `V1Affinity`). */
export interface PreferredHostnameAffinity {
  nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: number; preference: HostnameSelectorTerm }] };
}

/** A pod affinity that requires one node (assignable to client-node's `V1Affinity`). */
export interface RequiredHostnameAffinity {
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [HostnameSelectorTerm] } };
}

function hostnameTerm(node: string): HostnameSelectorTerm {
  if (typeof node !== "string" || node === "") {
    throw new CocoonError("ERR_INVALID_ARGUMENT", "hostname affinity needs a non-empty node name");
  }
  return { matchExpressions: [{ key: HOSTNAME_LABEL, operator: "In", values: [node] }] };
}

/**
 * Returns the affinity that prefers `node`, the one the operator puts on a woken main pod so it
 * lands where its snapshot is cached.
 *
 * @param weight - Scheduler weight, an integer from 1 to 100 (the API server's bounds).
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for an empty node or a weight outside 1..100.
 * @example
 * ```ts
 * const pod = buildMainPod(set);
 * const node = readHibernatedOnNode(set); // "" when the set has no hint: preferredHostnameAffinity("") throws
 * if (node !== "") pod.spec.affinity ??= preferredHostnameAffinity(node);
 * ```
 */
export function preferredHostnameAffinity(node: string, weight = 100): PreferredHostnameAffinity {
  if (!Number.isInteger(weight) || weight < 1 || weight > 100) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `affinity weight ${String(weight)} is not an integer from 1 to 100`);
  }
  return { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, preference: hostnameTerm(node) }] } };
}

/**
 * Returns the affinity that requires `node`, the one the operator puts on the main pod of a set pinned with `spec.nodeName`.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for an empty node.
 * @example
 * ```ts
 * requiredHostnameAffinity("node-1");
 * // => { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms:
 * //      [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-1"] }] }] } } }
 * ```
 */
export function requiredHostnameAffinity(node: string): RequiredHostnameAffinity {
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [hostnameTerm(node)] } } };
}

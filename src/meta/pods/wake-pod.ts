import { preferredHostnameAffinity } from "../affinity.js";
import { markRestoreFromHibernate } from "../hibernate.js";
import { readHibernatedOnNode } from "../hibernated-on-node.js";
import { buildMainPod } from "./agent-pod.js";
import type { CocoonPod, CocoonSetLike } from "./types.js";

/**
 * Returns the main pod the operator creates to wake a set whose seat was released (Go's
 * `startReleasedWake`): {@link buildMainPod}, marked to restore from its `:hibernate` snapshot,
 * and, when the set carries a hibernated-on-node hint and no pin (`spec.nodeName`) already gave
 * the pod an affinity, a weight-100 preference for that node, where the snapshot is cached. The
 * preference is soft: a pinned set keeps its required affinity, and a full node loses to a free one.
 *
 * Whether the `:hibernate` snapshot exists is the caller's to check first: the operator wakes
 * with this pod only when the registry has the tag.
 *
 * @throws {@link CocoonError} as {@link buildAgentPod} does.
 * @example
 * ```ts
 * const pod = buildWakePod(set);
 * readRestoreFromHibernate(pod); // => true
 * ```
 */
export function buildWakePod(set: CocoonSetLike): CocoonPod {
  const pod = buildMainPod(set);
  markRestoreFromHibernate(pod);
  const hint = readHibernatedOnNode(set);
  if (hint !== "" && pod.spec.affinity === undefined) pod.spec.affinity = preferredHostnameAffinity(hint);
  return pod;
}

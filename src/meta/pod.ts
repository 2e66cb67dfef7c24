import { DEFAULT_NODE_POOL, Label } from "./keys.js";
import type { PodLike } from "./objects.js";

/** Reports whether the pod has a `Ready` condition with status `True` (case-sensitive). */
export function isPodReady(pod: PodLike): boolean {
  return pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}

/** Reports whether the pod has failed. `Succeeded` is not terminal, as in Go. */
export function isPodTerminal(pod: PodLike): boolean {
  return pod.status?.phase === "Failed";
}

/**
 * Reports whether any regular container is running (`state.running` present, even `{}`); init and
 * ephemeral containers are ignored.
 */
export function isContainerRunning(pod: PodLike): boolean {
  return pod.status?.containerStatuses?.some((s) => s.state?.running != null) ?? false;
}

/**
 * Returns `namespace/name`, without escaping.
 *
 * @example
 * ```ts
 * podKey("prod", "demo-0"); // => "prod/demo-0"
 * ```
 */
export function podKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/**
 * Returns the pod's node pool: the first non-empty of the `cocoonstack.io/pool` node selector,
 * label and annotation, else `default`.
 */
export function podNodePool(pod: PodLike): string {
  return (
    pod.spec?.nodeSelector?.[Label.NodePool] ||
    pod.metadata?.labels?.[Label.NodePool] ||
    pod.metadata?.annotations?.[Label.NodePool] ||
    DEFAULT_NODE_POOL
  );
}

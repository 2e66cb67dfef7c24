import { annotationsOf, pathOf, someItem, stringAt, stringEntry } from "../internal/safe-read.js";
import { DEFAULT_NODE_POOL, Label } from "./keys.js";
import type { PodLike } from "./objects.js";

/**
 * Reports whether the pod has a `Ready` condition with status `True` (case-sensitive).
 * Never throws: a `null` condition reads as Go's zero condition, garbage as no conditions.
 */
export function isPodReady(pod: PodLike): boolean {
  return someItem(pathOf(pod, "status", "conditions"), (c) => stringAt(c, "type") === "Ready" && stringAt(c, "status") === "True");
}

/** Reports whether the pod has failed. `Succeeded` is not terminal, as in Go. Never throws. */
export function isPodTerminal(pod: PodLike): boolean {
  return stringAt(pod, "status", "phase") === "Failed";
}

/**
 * Reports whether any regular container is running (`state.running` present, even `{}`); init and
 * ephemeral containers are ignored. Never throws: a `null` status reads as Go's zero status.
 */
export function isContainerRunning(pod: PodLike): boolean {
  return someItem(pathOf(pod, "status", "containerStatuses"), (s) => pathOf(s, "state", "running") != null);
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
 * label and annotation, else `default`. Never throws: a value that is not a string is skipped.
 */
export function podNodePool(pod: PodLike): string {
  return (
    stringEntry(pathOf(pod, "spec", "nodeSelector"), Label.NodePool) ||
    stringEntry(pathOf(pod, "metadata", "labels"), Label.NodePool) ||
    stringEntry(annotationsOf(pod), Label.NodePool) ||
    DEFAULT_NODE_POOL
  );
}

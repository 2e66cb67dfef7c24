import type { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { annotationsMergePatchJSON } from "../../meta/index.js";
import {
  cocoonSetGenerationAnnotations,
  hibernateStateAnnotations,
  hibernatedOnNodeAnnotations,
  keepSnapshotOnDeleteAnnotations,
  readCocoonSetGeneration,
  readHibernateState,
  readHibernatedOnNode,
  readKeepSnapshotOnDelete,
  type AnnotationDelta,
  type Int64,
} from "../../meta/index.js";
import { sendAnnotations, type AnnotationPatchOptions } from "./annotations.js";
import { unsent, type Patched } from "./patched.js";
import { resolveTarget, type KubeObject, type Target } from "./target.js";

/** The client the Pod helpers need: client-node's `CoreV1Api` as `core` ({@link CocoonClients} fits). */
export interface PodPatchClients {
  /** Client-node's `CoreV1Api` (or anything with this method). */
  readonly core: Pick<CoreV1Api, "patchNamespacedPod">;
}

/** The client the CocoonSet helpers need: client-node's `CustomObjectsApi` as `customObjects`. */
export interface CocoonSetPatchClients {
  /** Client-node's `CustomObjectsApi` (or anything with this method). */
  readonly customObjects: Pick<CustomObjectsApi, "patchNamespacedCustomObject">;
}

/** Sends `delta` unless `satisfied`; the delta is built (and checked) before anything else. */
async function patchUnless<T extends KubeObject>(
  clients: PodPatchClients | CocoonSetPatchClients,
  obj: T,
  delta: AnnotationDelta,
  satisfied: boolean,
  options: AnnotationPatchOptions,
  target: Target,
): Promise<Patched<T>> {
  const body = annotationsMergePatchJSON(delta);
  return satisfied ? unsent(obj) : sendAnnotations(clients, target, body, options);
}

/**
 * {@link patchKeepSnapshotOnDelete} for a pod whose target is already resolved.
 *
 * @internal
 */
export function flagKeepSnapshotOnDelete<T extends KubeObject>(
  clients: PodPatchClients,
  pod: T,
  target: Target,
  options: AnnotationPatchOptions,
): Promise<Patched<T>> {
  return patchUnless(clients, pod, keepSnapshotOnDeleteAnnotations(), readKeepSnapshotOnDelete(pod), options, target);
}

/**
 * Flags the pod to keep its node-local snapshot on delete (Go's `PatchKeepSnapshotOnDelete`); no
 * request when it already reads as flagged.
 *
 * Body: `{"metadata":{"annotations":{"vm.cocoonstack.io/keep-snapshot-on-delete":"true"}}}`.
 * Resolves to the server's copy (a client-node `V1Pod`: {@link Patched}), or to `pod` when nothing was sent.
 *
 * @example
 * ```ts
 * await patchKeepSnapshotOnDelete(clients, pod);
 * await clients.core.deleteNamespacedPod({ name, namespace });
 * ```
 */
export async function patchKeepSnapshotOnDelete<T extends KubeObject>(
  clients: PodPatchClients,
  pod: T,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  return flagKeepSnapshotOnDelete(clients, pod, resolveTarget(pod, "patchKeepSnapshotOnDelete"), options);
}

/**
 * Sets the pod's hibernate flag, or deletes it for `false` (Go's `PatchHibernateState`); no request
 * when {@link readHibernateState} already equals `state`.
 *
 * The comparison is on the parsed value, as in Go: an annotation `"false"` or `"yes"` already reads
 * as `false`, so `state = false` sends nothing and leaves that value in place.
 *
 * @example
 * ```ts
 * await patchHibernateState(clients, pod, true); // {"metadata":{"annotations":{"vm.cocoonstack.io/hibernate":"true"}}}
 * await patchHibernateState(clients, pod, false); // {"metadata":{"annotations":{"vm.cocoonstack.io/hibernate":null}}}
 * ```
 */
export async function patchHibernateState<T extends KubeObject>(
  clients: PodPatchClients,
  pod: T,
  state: boolean,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  return patchUnless(
    clients,
    pod,
    hibernateStateAnnotations(state),
    readHibernateState(pod) === state,
    options,
    resolveTarget(pod, "patchHibernateState"),
  );
}

/**
 * Stamps the owning CocoonSet's generation on the pod (Go's `PatchCocoonSetGeneration`); no request
 * when {@link readCocoonSetGeneration} already equals `generation`.
 *
 * As in Go, a missing or garbage annotation reads as 0, so `generation = 0` sends nothing.
 *
 * @throws {@link CocoonError} `ERR_INVALID_INTEGER` when `generation` is not a Go `int64`.
 * @example
 * ```ts
 * await patchCocoonSetGeneration(clients, pod, set.metadata.generation ?? 0);
 * ```
 */
export async function patchCocoonSetGeneration<T extends KubeObject>(
  clients: PodPatchClients,
  pod: T,
  generation: Int64,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  const delta = cocoonSetGenerationAnnotations(generation);
  return patchUnless(
    clients,
    pod,
    delta,
    BigInt(readCocoonSetGeneration(pod)) === BigInt(generation),
    options,
    resolveTarget(pod, "patchCocoonSetGeneration"),
  );
}

/**
 * Stashes the wake hint (the main pod's node) on a CocoonSet, or clears it for `null`, `undefined` or `""`; no
 * request when {@link readHibernatedOnNode} already equals it (`""` meaning unset).
 *
 * The operator writes it when it releases a seat and clears it once the woken VM is live.
 *
 * @example
 * ```ts
 * await patchHibernatedOnNode(clients, set, main.spec?.nodeName); // stash (an unscheduled pod's undefined clears)
 * await patchHibernatedOnNode(clients, set, null); // clear: {"metadata":{"annotations":{"cocoonset.cocoonstack.io/hibernated-on-node":null}}}
 * ```
 */
export async function patchHibernatedOnNode<T extends KubeObject>(
  clients: CocoonSetPatchClients,
  set: T,
  node: string | null | undefined,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  return patchUnless(
    clients,
    set,
    hibernatedOnNodeAnnotations(node),
    readHibernatedOnNode(set) === (node ?? ""),
    options,
    resolveTarget(set, "patchHibernatedOnNode"),
  );
}

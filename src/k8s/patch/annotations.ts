import { annotationsMergePatchJSON } from "../../meta/index.js";
import { annotationsSatisfied, type AnnotationDelta } from "../../meta/index.js";
import type { KubeRequester } from "../request/kube-request.js";
import { MERGE_PATCH } from "./content-types.js";
import { sendPatch } from "./send-patch.js";
import { unsent, type Patched } from "./patched.js";
import { resolveTarget, type AnnotationClients, type KubeObject, type Target } from "./target.js";

/**
 * Options of the annotation patch helpers.
 *
 * @example
 * ```ts
 * const options: AnnotationPatchOptions = { signal: AbortSignal.timeout(5_000) };
 * pod = await patchHibernateState(clients, pod, true, options); // rejects with a TimeoutError after 5 s
 * ```
 */
export interface AnnotationPatchOptions {
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Sends `delta` as one JSON merge patch (`application/merge-patch+json`) of
 * `metadata.annotations`, or nothing when `target` already holds it ({@link annotationsSatisfied}).
 *
 * The body is Go's `AnnotationsMergePatch(delta)` byte for byte (`annotationsMergePatchJSON`): keys
 * sorted, strings escaped as Go's encoder does; a value sets its key, `null` deletes it, every
 * other annotation and field is left alone, and there is no `resourceVersion`
 * precondition (annotation writes commute). `target` is never modified; the promise resolves to the
 * server's copy (client-node's `V1Pod` for a pod, its timestamps `Date`s: {@link Patched}), or to
 * `target` itself when nothing was sent. Pods go through `clients.core`, and
 * an object without `kind` counts as a Pod (client-node's typed lists leave `kind` out);
 * CocoonSets and CocoonHibernations go through `clients.customObjects`.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ANNOTATION_DELTA` for an empty or ill-typed delta (checked
 * first, even when nothing would be sent); `ERR_INVALID_ARGUMENT`, before any request, for an
 * unsupported kind, a missing or invalid name or namespace, or a missing client;
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not `target`;
 * client-node's `ApiException` for a refused request.
 * @example
 * ```ts
 * const pod = await core.readNamespacedPod({ name, namespace });
 * await patchAnnotations({ core }, pod, { [Annotation.VMID]: "vm-1", [Annotation.IP]: null });
 * // PATCH .../pods/<name>  {"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":null}}}
 * ```
 */
export async function patchAnnotations<T extends KubeObject>(
  clients: AnnotationClients,
  target: T,
  delta: AnnotationDelta,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  const body = annotationsMergePatchJSON(delta);
  const resolved = resolveTarget(target, "patchAnnotations");
  if (annotationsSatisfied(target, delta)) return unsent(target);
  return sendAnnotations(clients, resolved, body, options);
}

/**
 * Sends an annotation merge patch (Go's bytes) to a resolved target without looking at the
 * current value; the typed helpers call it after their own (parsed-value) short-circuit.
 *
 * @internal
 */
export async function sendAnnotations<T extends KubeObject>(
  clients: AnnotationClients | KubeRequester,
  target: Target,
  body: string,
  options: AnnotationPatchOptions,
): Promise<Patched<T>> {
  options.signal?.throwIfAborted();
  return (await sendPatch(clients, target, { body, contentType: MERGE_PATCH, signal: options.signal })) as Patched<T>;
}

import { CocoonError } from "../../errors.js";
import { annotationsMergePatchJSON, annotationsSatisfied, lifecycleStatusAnnotations, type LifecycleStatus } from "../../meta/index.js";
import { sendAnnotations, type AnnotationPatchOptions } from "../patch/annotations.js";
import type { PodPatchClients } from "../patch/contracts.js";
import type { KubeRequester } from "../request/kube-request.js";
import { unsent, type Patched } from "../patch/patched.js";
import { resolvePodTarget, type KubeObject } from "../patch/target.js";

/**
 * Writes the pod's lifecycle status (state, observed generation, message), as vk-cocoon's
 * `flushLifecycle` does: one JSON merge patch of all three annotations, so the operator never
 * reads a state with another round's generation, or no request when the pod already holds them.
 * An empty message deletes the message annotation. Every other annotation is left alone, and
 * there is no `resourceVersion` precondition (the virtual kubelet is the one writer of these keys).
 * Resolves to the server's copy (a client-node `V1Pod`: {@link Patched}), or to `pod` when
 * nothing was sent.
 *
 * Write it after the pod status that goes with it ({@link reportVM} does both, in that order): the
 * operator takes the lifecycle state as the signal that the pod is done.
 *
 * @throws {@link CocoonError}, before any request: `ERR_INVALID_ARGUMENT` for an object that is not
 * a Pod or lacks a valid name or namespace, or a `status` whose state or message is not a string;
 * `ERR_INVALID_INTEGER` for an observed generation that is not a Go `int64`.
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not this pod;
 * client-node's `ApiException` for a refused request; the signal's reason when aborted.
 * @example
 * ```ts
 * const status = { state: LifecycleState.Hibernated, observedGeneration: readCocoonSetGeneration(pod), message: "" };
 * pod = await patchLifecycleStatus(clients, pod, status);
 * // PATCH .../pods/<name>  {"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"0","vm.cocoonstack.io/lifecycle-state":"hibernated","vm.cocoonstack.io/lifecycle-state-message":null}}}
 * await patchLifecycleStatus(clients, pod, status); // the pod holds it: no request
 * ```
 */
export async function patchLifecycleStatus<T extends KubeObject>(
  clients: PodPatchClients | KubeRequester,
  pod: T,
  status: LifecycleStatus,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  const target = resolvePodTarget(pod, "patchLifecycleStatus");
  const delta = lifecycleStatusAnnotations(checkedStatus(status));
  const body = annotationsMergePatchJSON(delta);
  return annotationsSatisfied(pod, delta) ? unsent(pod) : sendAnnotations(clients, target, body, options);
}

/** `status`, once its state and message are strings; each failure names the field. */
function checkedStatus(status: unknown): LifecycleStatus {
  if (typeof status !== "object" || status === null || Array.isArray(status)) {
    const got = status === null ? "null" : Array.isArray(status) ? "an array" : typeof status;
    throw new CocoonError("ERR_INVALID_ARGUMENT", `patchLifecycleStatus: status must be an object, got ${got}`);
  }
  for (const field of ["state", "message"] as const) {
    const value = (status as Record<string, unknown>)[field];
    if (typeof value !== "string") {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `patchLifecycleStatus: status.${field} must be a string, got ${typeof value}`);
    }
  }
  return status as LifecycleStatus;
}

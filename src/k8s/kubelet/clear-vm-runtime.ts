import { annotationsMergePatchJSON, annotationsSatisfied, clearVMRuntimeAnnotations } from "../../meta/index.js";
import { sendAnnotations, type AnnotationPatchOptions } from "../patch/annotations.js";
import type { PodPatchClients } from "../patch/contracts.js";
import type { KubeRequester } from "../request/kube-request.js";
import { unsent, type Patched } from "../patch/patched.js";
import { resolvePodTarget, type KubeObject } from "../patch/target.js";

/**
 * Clears the pod's VM runtime (ID and IP) when its VM hibernates: one JSON merge patch
 * `{"metadata":{"annotations":{"vm.cocoonstack.io/id":null,"vm.cocoonstack.io/ip":null}}}`, or no
 * request when neither annotation is there. The VNC port and every other annotation are left alone.
 * Resolves to the server's copy (a client-node `V1Pod`, its timestamps `Date`s: {@link Patched}), or
 * to `pod` when nothing was sent.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an object that is not a
 * Pod or lacks a valid name or namespace; {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when
 * the answer is not this pod; client-node's `ApiException` for a refused request.
 * @example
 * ```ts
 * pod = await patchClearVMRuntime(clients, pod); // after the hibernate snapshot is pushed and the VM removed
 * ```
 */
export async function patchClearVMRuntime<T extends KubeObject>(
  clients: PodPatchClients | KubeRequester,
  pod: T,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  const target = resolvePodTarget(pod, "patchClearVMRuntime");
  const delta = clearVMRuntimeAnnotations();
  const body = annotationsMergePatchJSON(delta);
  return annotationsSatisfied(pod, delta) ? unsent(pod) : sendAnnotations(clients, target, body, options);
}

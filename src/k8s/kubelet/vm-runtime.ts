import { CocoonError } from "../../errors.js";
import { toGoInteger } from "../../internal/go/index.js";
import { annotationsMergePatchJSON, vmRuntimeAnnotations, type AnnotationDelta, type VMRuntime } from "../../meta/index.js";
import { sendAnnotations, type AnnotationPatchOptions } from "../patch/annotations.js";
import type { PodPatchClients } from "../patch/contracts.js";
import type { KubeRequester } from "../request/kube-request.js";
import { unsent, type Patched } from "../patch/patched.js";
import { resolvePodTarget, type KubeObject } from "../patch/target.js";

const HELPER = "patchVMRuntime";

/**
 * Writes the pod's VM runtime (ID, IP, VNC port) once its VM runs: one JSON merge patch of exactly
 * the annotations whose value changes, or no request when none does. As Go's `VMRuntime.Apply`,
 * it only sets: an empty ID or IP and a VNC port of 0 (or below) leave the annotation as it is;
 * {@link patchClearVMRuntime} deletes them. Every other annotation is left alone, and there is no
 * `resourceVersion` precondition (annotation writes commute). Resolves to the server's copy (a
 * client-node `V1Pod`: {@link Patched}), or to `pod` when nothing was sent.
 *
 * @throws {@link CocoonError}, before any request: `ERR_INVALID_ARGUMENT` for an object that is not
 * a Pod or lacks a valid name or namespace, a `runtime` that is not an object, or a `vmID` or `ip`
 * that is not a string; `ERR_INVALID_INTEGER` for a `vncPort` that is not a Go `int32`.
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not this pod;
 * client-node's `ApiException` for a refused request; the signal's reason when aborted.
 * @example
 * ```ts
 * const pod = await core.readNamespacedPod({ name, namespace: ns });
 * const live = await patchVMRuntime(clients, pod, { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 });
 * // PATCH .../pods/<name>  {"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":"10.88.0.7","vm.cocoonstack.io/vnc-port":"5900"}}}
 * await patchVMRuntime(clients, live, { vmID: "vm-1", ip: "10.88.0.8" }); // only the IP changed: {"metadata":{"annotations":{"vm.cocoonstack.io/ip":"10.88.0.8"}}}
 * ```
 */
export async function patchVMRuntime<T extends KubeObject>(
  clients: PodPatchClients | KubeRequester,
  pod: T,
  runtime: Partial<VMRuntime>,
  options: AnnotationPatchOptions = {},
): Promise<Patched<T>> {
  const target = resolvePodTarget(pod, HELPER);
  const changed = changedAnnotations(pod, vmRuntimeAnnotations(checkedRuntime(runtime)));
  if (Object.keys(changed).length === 0) return unsent(pod);
  return sendAnnotations(clients, target, annotationsMergePatchJSON(changed), options);
}

/** The entries of `delta` (sets only) whose value the object does not hold yet. */
function changedAnnotations(obj: KubeObject, delta: AnnotationDelta): AnnotationDelta {
  const current = obj.metadata?.annotations;
  return Object.fromEntries(Object.entries(delta).filter(([key, value]) => current?.[key] !== value));
}

/** `runtime`, once its fields are the types {@link VMRuntime} says; each failure names the field. */
function checkedRuntime(runtime: unknown): Partial<VMRuntime> {
  if (typeof runtime !== "object" || runtime === null || Array.isArray(runtime)) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `${HELPER}: runtime must be an object, got ${runtime === null ? "null" : typeof runtime}`,
    );
  }
  const { vmID, ip, vncPort } = runtime as Record<string, unknown>;
  for (const [field, value] of [
    ["vmID", vmID],
    ["ip", ip],
  ] as const) {
    if (value !== undefined && typeof value !== "string") {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `${HELPER}: runtime.${field} must be a string, got ${typeof value}`);
    }
  }
  if (vncPort !== undefined) toGoInteger(vncPort as number, `${HELPER}: runtime.vncPort`, 32);
  return runtime;
}

import type { CoreV1Api } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { checkDeleteAnswer } from "../answer-identity.js";
import { isConflict, isNotFound } from "../api-errors.js";
import { objectPath } from "../patch/object-path.js";
import { resolvePodTarget, type KubeObject } from "../patch/target.js";
import { isKubeRequester, type KubeRequester } from "../request/kube-request.js";
import { requestJSON } from "../request/read-answer.js";

/**
 * What {@link finishPodDeletion} did: `deleted` (the pod is gone now), `already-gone` (there was no
 * pod of that name), `uid-mismatch` (the name belongs to a newer pod, which was left alone).
 *
 * @example
 * ```ts
 * if ((await finishPodDeletion(clients, pod)) === PodDeletion.UIDMismatch) log.info("recreated meanwhile; left alone");
 * ```
 */
export const PodDeletion = { Deleted: "deleted", AlreadyGone: "already-gone", UIDMismatch: "uid-mismatch" } as const;
/** One of the {@link PodDeletion} values. */
export type PodDeletion = (typeof PodDeletion)[keyof typeof PodDeletion];

/**
 * The client {@link finishPodDeletion} needs: client-node's `CoreV1Api` as `core` ({@link CocoonClients} fits).
 *
 * @example
 * ```ts
 * const deleter: FinishPodDeletionClients = { core: kubeConfig.makeApiClient(CoreV1Api) };
 * ```
 */
export interface FinishPodDeletionClients {
  /** Client-node's `CoreV1Api` (or anything with this method). */
  readonly core: Pick<CoreV1Api, "deleteNamespacedPod">;
}

/**
 * Options of {@link finishPodDeletion}.
 *
 * @example
 * ```ts
 * await finishPodDeletion(clients, pod, { signal: AbortSignal.timeout(10_000) });
 * ```
 */
export interface FinishPodDeletionOptions {
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Finishes a pod's deletion once its VM is gone, as virtual-kubelet does after the provider's
 * `DeletePod` (`deletePodsFromKubernetesHandler`): one `DELETE` with grace period 0 and the pod's
 * uid as precondition, both in the `DeleteOptions` body
 * (`{"gracePeriodSeconds":0,"preconditions":{"uid":"…"}}`). The API server ignores a
 * `gracePeriodSeconds` query parameter sent beside a body, so it is never sent as one.
 *
 * The uid precondition means a newer pod that took the name (the operator recreating a slot) is
 * never deleted: the server answers 409 and the result is `uid-mismatch`. A 404 is `already-gone`.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an object that is not a
 * Pod or lacks a valid name, namespace or uid (a delete by name alone could hit a newer pod; a name
 * like `.` or `..` would leave the pod's path); {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT`
 * when a `200` answer is neither a `Status` nor this pod; client-node's `ApiException` for any other
 * refusal; the signal's reason when aborted.
 * @example
 * ```ts
 * await removeVM(vmName);
 * const outcome = await finishPodDeletion(clients, pod); // "deleted", "already-gone" or "uid-mismatch"
 * ```
 */
export async function finishPodDeletion(
  clients: FinishPodDeletionClients | KubeRequester,
  pod: KubeObject,
  options: FinishPodDeletionOptions = {},
): Promise<PodDeletion> {
  const target = resolvePodTarget(pod, "finishPodDeletion");
  const { name, namespace, uid } = target;
  if (!uid) throw new CocoonError("ERR_INVALID_ARGUMENT", `finishPodDeletion needs the uid of pod ${namespace}/${name}`);
  const { signal } = options;
  signal?.throwIfAborted();
  const body = { gracePeriodSeconds: 0, preconditions: { uid } };
  let answer: unknown;
  try {
    answer = isKubeRequester(clients)
      ? await requestJSON(clients, { method: "DELETE", path: objectPath(target), body: JSON.stringify(body), signal })
      : await (await import("../call-options.js")).deletePod(clients.core, { name, namespace, body }, signal);
  } catch (err) {
    signal?.throwIfAborted();
    if (isNotFound(err)) return PodDeletion.AlreadyGone;
    if (isConflict(err)) return PodDeletion.UIDMismatch;
    throw err;
  }
  checkDeleteAnswer(answer, target);
  return PodDeletion.Deleted;
}

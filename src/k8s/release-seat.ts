import type { CoreV1Api } from "@kubernetes/client-node";
import { Annotation } from "../meta/index.js";
import { isConflict, isNotFound, statusCode, statusMessage } from "./api-errors.js";
import { checkAnswer, checkDeleteAnswer } from "./answer-identity.js";
import { callOptions } from "./call-options.js";
import type { Logger } from "./logger.js";
import { flagKeepSnapshotOnDelete } from "./patch/contracts.js";
import { resolvePodTarget, type KubeObject } from "./patch/target.js";
import { messageOf } from "../internal/message-of.js";
import { isUnexpectedObjectError } from "./resources/unexpected-object-error.js";
import { stringAt } from "../internal/safe-read.js";

/** The client {@link releaseSeat} needs: client-node's `CoreV1Api` as `core` ({@link CocoonClients} fits). */
export interface ReleaseSeatClients {
  /** Client-node's `CoreV1Api` (or anything with these methods). */
  readonly core: Pick<CoreV1Api, "patchNamespacedPod" | "deleteNamespacedPod">;
}

/**
 * Options of {@link releaseSeat}.
 *
 * @example
 * ```ts
 * const options: ReleaseSeatOptions = { logger: console, signal: AbortSignal.timeout(30_000) };
 * await releaseSeat(clients, pod, options);
 * ```
 */
export interface ReleaseSeatOptions {
  /** Gets the flag failure at error level; without one, the failure is only in the result. */
  logger?: Logger | undefined;
  /** Aborts the release: the promise rejects, and a delete not yet sent is never sent. */
  signal?: AbortSignal | undefined;
}

/**
 * What {@link releaseSeat} did. The seat is free whenever it resolves; `flagged` says whether the
 * node-local snapshot was kept as a warm-wake cache.
 *
 * @example
 * ```ts
 * const { flagged, flagError, deletion } = await releaseSeat(clients, pod, { logger });
 * // => { flagged: true, deletion: "deleted" }: the virtual kubelet keeps the snapshot, the seat is free
 * if (!flagged) metrics.coldWakes.inc(); // flagError says why; the wake will pull from the registry
 * ```
 */
export interface ReleaseSeatResult {
  /** The pod carried keep-snapshot-on-delete when the delete was sent (flagged now, or before). */
  readonly flagged: boolean;
  /** Why the flag did not land (logged at error level too); absent when `flagged` or when the pod was gone. */
  readonly flagError?: unknown;
  /**
   * `"deleted"`: this call's delete was accepted. `"already-gone"`: the pod did not exist (404 on the
   * flag or the delete), or the name now belongs to a newer pod, which is left alone.
   */
  readonly deletion: "deleted" | "already-gone";
}

/**
 * Releases a hibernated agent's seat: flags the pod keep-snapshot-on-delete, then deletes it (the
 * operator's seat-release step, cocoonset/slotrelease.go).
 *
 * The flag is best-effort, as in Go: a failure is logged at error level through `options.logger`,
 * reported in the result, and does not stop the delete. It is awaited, so it is durable on the
 * server before the delete is sent and the virtual kubelet reads it from the pod it sees deleted. No flag
 * request is sent when the pod already reads as flagged.
 *
 * A pod already gone counts as released: a 404 on the flag skips the delete (the name is free) and
 * a 404 on the delete is fine. When `pod.metadata.uid` is known, a newer pod that took the same
 * name is never deleted: the delete carries the uid as a precondition, and a flag response with
 * another uid (same kind, namespace and name) ends the call. Other delete failures reject.
 *
 * The name and namespace are checked before any request: a name that is not one path segment
 * (`.`, `..`, `/`, `%`) or not a name the API server could have stored refuses the call, so a pod
 * named `.` can never become a delete of every pod. An answer that is not this pod (another name,
 * namespace or kind, no object at all, or a pod without uid) rejects the call before the delete.
 *
 * @throws client-node's `ApiException` when the delete is refused; the signal's reason when aborted;
 * {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an object that is not a Pod or
 * lacks a valid name or namespace; {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the
 * flag or the delete is answered with another object.
 * @example
 * ```ts
 * const result = await releaseSeat(clients, pod, { logger });
 * if (!result.flagged) metrics.coldWakes.inc(); // the snapshot was not kept
 * ```
 */
export async function releaseSeat(
  clients: ReleaseSeatClients,
  pod: KubeObject,
  options: ReleaseSeatOptions = {},
): Promise<ReleaseSeatResult> {
  const { signal, logger } = options;
  const target = resolvePodTarget(pod, "releaseSeat");
  const { name, namespace, uid } = target;
  let flagged = true;
  let flagError: unknown;
  try {
    // The answer is checked without the uid here: another uid under the same name is handled below.
    const flaggedPod = await flagKeepSnapshotOnDelete(clients, pod, { kind: "Pod", name, namespace }, { signal });
    const answeredUID = stringAt(flaggedPod, "metadata", "uid");
    if (uid !== undefined && answeredUID !== uid) {
      if (answeredUID === "") checkAnswer(flaggedPod, target, "patch");
      // The name now belongs to a newer pod (it got the flag, harmlessly): ours is gone.
      return { flagged: false, deletion: "already-gone" };
    }
  } catch (err) {
    signal?.throwIfAborted();
    if (isUnexpectedObjectError(err)) throw err;
    if (isNotFound(err)) return { flagged: false, deletion: "already-gone" };
    flagged = false;
    flagError = err;
    logger?.error(`flag pod ${namespace}/${name} ${Annotation.KeepSnapshotOnDelete} before releasing its seat: ${describe(err)}`, {
      err,
      pod: `${namespace}/${name}`,
      annotation: Annotation.KeepSnapshotOnDelete,
    });
  }
  signal?.throwIfAborted();
  let answer: unknown;
  try {
    answer = await clients.core.deleteNamespacedPod(
      { name, namespace, ...(uid ? { body: { preconditions: { uid } } } : {}) },
      callOptions({ signal }),
    );
  } catch (err) {
    signal?.throwIfAborted();
    // A uid precondition that fails (409) means the name now belongs to another pod: ours is gone.
    if (!(isNotFound(err) || (uid && isConflict(err)))) throw err;
    return flagged ? { flagged, deletion: "already-gone" } : { flagged, flagError, deletion: "already-gone" };
  }
  checkDeleteAnswer(answer, target);
  return flagged ? { flagged, deletion: "deleted" } : { flagged, flagError, deletion: "deleted" };
}

/** One line for a failed request: HTTP code and the server's message, else the error's own. */
function describe(err: unknown): string {
  const code = statusCode(err);
  const message = statusMessage(err) ?? messageOf(err);
  return code === undefined ? message : `${code} ${message}`;
}

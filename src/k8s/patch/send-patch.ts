import { checkAnswer } from "../answer-identity.js";
import { isKubeRequester, type KubeRequester } from "../request/kube-request.js";
import { requestJSON } from "../request/read-answer.js";
import { objectPath } from "./object-path.js";
import type { AnyPatchClients, Target } from "./target.js";

/** One patch request: body, content type, optional `/status` subresource, abort signal. */
export interface PatchRequest {
  /** The body's bytes, written by Go's encoder; sent exactly as they are. */
  readonly body: string;
  readonly contentType: string;
  readonly status?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends one patch to the object's resource (or its `/status`) and resolves to the server's copy,
 * once it is checked to be the target (kind, apiVersion, namespace, name, and uid when the target has one).
 * On a {@link KubeRequester} the answer is read within its cap and deadline; client-node clients
 * are driven by a module loaded only then.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` when `clients` lacks the API client the kind needs;
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not the target.
 * @internal
 */
export async function sendPatch(clients: AnyPatchClients | KubeRequester, target: Target, request: PatchRequest): Promise<unknown> {
  let answer: unknown;
  try {
    answer = isKubeRequester(clients)
      ? await requestJSON(clients, {
          method: "PATCH",
          path: objectPath(target) + (request.status ? "/status" : ""),
          body: request.body,
          contentType: request.contentType,
          signal: request.signal,
        })
      : await (await import("./client-node-patch.js")).clientNodePatch(clients, target, request);
  } catch (err) {
    request.signal?.throwIfAborted(); // an aborted call rejects with the signal's reason, not node-fetch's AbortError
    throw err;
  }
  checkAnswer(answer, target, request.status ? "patch status of" : "patch");
  return answer;
}

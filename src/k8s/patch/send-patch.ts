import { GROUP, VERSION } from "../../apis/v1/groupversion-info.js";
import { CocoonError } from "../../errors.js";
import { checkAnswer } from "../answer-identity.js";
import { callOptions } from "../call-options.js";
import { PLURALS, type AnyPatchClients, type Target } from "./target.js";

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
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` when `clients` lacks the API client the kind needs;
 * {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when the answer is not the target.
 * @internal
 */
export async function sendPatch(clients: AnyPatchClients, target: Target, request: PatchRequest): Promise<unknown> {
  let answer: unknown;
  try {
    answer = await dispatch(clients, target, request);
  } catch (err) {
    request.signal?.throwIfAborted(); // an aborted call rejects with the signal's reason, not node-fetch's AbortError
    throw err;
  }
  checkAnswer(answer, target, request.status ? "patch status of" : "patch");
  return answer;
}

async function dispatch(clients: AnyPatchClients, target: Target, request: PatchRequest): Promise<unknown> {
  const { name, namespace } = target;
  const options = callOptions({ contentType: request.contentType, signal: request.signal, body: request.body });
  // client-node serializes `body` with JSON.stringify; the middleware above then puts Go's bytes in its place.
  const body = JSON.parse(request.body) as object;
  if (target.kind === "Pod") {
    const method = request.status ? "patchNamespacedPodStatus" : "patchNamespacedPod";
    const call = clients.core?.[method]?.bind(clients.core);
    if (call === undefined) throw missingClient(`core.${method}`, "CoreV1Api", target);
    return call({ name, namespace, body }, options);
  }
  const method = request.status ? "patchNamespacedCustomObjectStatus" : "patchNamespacedCustomObject";
  const call = clients.customObjects?.[method]?.bind(clients.customObjects);
  if (call === undefined) throw missingClient(`customObjects.${method}`, "CustomObjectsApi", target);
  const params = { group: GROUP, version: VERSION, plural: PLURALS[target.kind], name, namespace, body };
  return (await call(params, options)) as unknown;
}

function missingClient(method: string, api: string, target: Target): CocoonError {
  return new CocoonError(
    "ERR_INVALID_ARGUMENT",
    `patching ${target.kind} ${target.namespace}/${target.name} needs clients.${method} (client-node's ${api})`,
  );
}

import { GROUP, VERSION } from "../../apis/v1/groupversion-info.js";
import { CocoonError } from "../../errors.js";
import { callOptions } from "../call-options.js";
import type { PatchRequest } from "./send-patch.js";
import { PLURALS, type AnyPatchClients, type Target } from "./target.js";

/**
 * Sends one patch through client-node's generated methods (`core` for Pods, `customObjects` for the
 * cocoon kinds). Loaded only when a helper is given client-node clients.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` when `clients` lacks the API client the kind needs.
 * @internal
 */
export async function clientNodePatch(clients: AnyPatchClients, target: Target, request: PatchRequest): Promise<unknown> {
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

import type { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { API_VERSION, GROUP, Kind, Plural, VERSION } from "../apis/v1/groupversion-info.js";
import { CocoonError } from "../errors.js";
import { callOptions } from "./call-options.js";

/**
 * The object fields the patch helpers read: a client-node `V1Pod`, a CocoonSet or
 * CocoonHibernation (typed or plain JSON).
 */
export interface KubeObject {
  /** `v1` for a Pod (or missing), `cocoonset.cocoonstack.io/v1` for the cocoon kinds (or missing). */
  apiVersion?: string | undefined;
  /** `Pod` (or missing), `CocoonSet` or `CocoonHibernation`. */
  kind?: string | undefined;
  /** The object metadata the helpers read. */
  metadata?:
    | {
        /** Required: the object to patch. */
        name?: string | undefined;
        /** Required: every supported kind is namespaced. */
        namespace?: string | undefined;
        /** Read by {@link releaseSeat} to never delete a newer pod of the same name. */
        uid?: string | undefined;
        /** Sent as the precondition of a guarded {@link patch} or {@link patchStatus}. */
        resourceVersion?: string | undefined;
        /** Compared with the delta, so that a satisfied one sends nothing. */
        annotations?: Record<string, string> | undefined;
      }
    | undefined;
}

/**
 * The client-node API clients {@link patch} and {@link patchStatus} may need: `core` for Pods,
 * `customObjects` for the cocoon kinds. {@link CocoonClients} fits, and so does
 * `{ core: kc.makeApiClient(CoreV1Api), customObjects: kc.makeApiClient(CustomObjectsApi) }`.
 */
export interface PatchClients {
  /** Client-node's `CoreV1Api` (or anything with these methods). */
  readonly core?: Pick<CoreV1Api, "patchNamespacedPod" | "patchNamespacedPodStatus"> | undefined;
  /** Client-node's `CustomObjectsApi` (or anything with these methods). */
  readonly customObjects?: Pick<CustomObjectsApi, "patchNamespacedCustomObject" | "patchNamespacedCustomObjectStatus"> | undefined;
}

/** The client-node API clients {@link patchAnnotations} may need: `core` for Pods, `customObjects` for the cocoon kinds. */
export interface AnnotationClients {
  /** Client-node's `CoreV1Api` (or anything with this method). */
  readonly core?: Pick<CoreV1Api, "patchNamespacedPod"> | undefined;
  /** Client-node's `CustomObjectsApi` (or anything with this method). */
  readonly customObjects?: Pick<CustomObjectsApi, "patchNamespacedCustomObject"> | undefined;
}

/** Either of the above: the methods a request needs are checked when it is sent. */
type AnyPatchClients = {
  readonly core?: Partial<Pick<CoreV1Api, "patchNamespacedPod" | "patchNamespacedPodStatus">> | undefined;
  readonly customObjects?: Partial<Pick<CustomObjectsApi, "patchNamespacedCustomObject" | "patchNamespacedCustomObjectStatus">> | undefined;
};

/** Where one patch goes. */
export interface Target {
  readonly kind: "Pod" | typeof Kind.CocoonSet | typeof Kind.CocoonHibernation;
  readonly name: string;
  readonly namespace: string;
}

/** One patch request: body, content type, optional `/status` subresource, abort signal. */
export interface PatchRequest {
  readonly body: object;
  readonly contentType: string;
  readonly status?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
}

const PLURALS = { [Kind.CocoonSet]: Plural.CocoonSet, [Kind.CocoonHibernation]: Plural.CocoonHibernation } as const;

/**
 * Works out which resource `obj` is. A missing `kind` counts as a Pod when `apiVersion` is `v1` or
 * missing too, because objects taken from client-node's typed lists (`listNamespacedPod().items`)
 * carry neither. `CocoonSet` and `CocoonHibernation` must have `apiVersion`
 * `cocoonset.cocoonstack.io/v1` or none.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for another kind, or a missing name or namespace.
 * @internal
 */
export function resolveTarget(obj: KubeObject): Target {
  const { apiVersion, kind } = obj;
  const name = obj.metadata?.name;
  const namespace = obj.metadata?.namespace;
  let resolved: Target["kind"] | undefined;
  if ((kind === undefined || kind === "Pod") && (apiVersion === undefined || apiVersion === "v1")) resolved = "Pod";
  else if ((kind === Kind.CocoonSet || kind === Kind.CocoonHibernation) && (apiVersion === undefined || apiVersion === API_VERSION)) {
    resolved = kind;
  }
  if (resolved === undefined) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `cannot patch ${apiVersion ?? "?"}/${kind ?? "?"}: only Pods, CocoonSets and CocoonHibernations`);
  }
  if (!name || !namespace) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `cannot patch a ${resolved} without metadata.name and metadata.namespace`);
  }
  return { kind: resolved, name, namespace };
}

/**
 * Sends one patch to the object's resource (or its `/status`) and resolves to the server's copy.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` when `clients` lacks the API client the kind needs.
 * @internal
 */
export async function sendPatch(clients: AnyPatchClients, target: Target, request: PatchRequest): Promise<unknown> {
  try {
    return await dispatch(clients, target, request);
  } catch (err) {
    request.signal?.throwIfAborted(); // an aborted call rejects with the signal's reason, not node-fetch's AbortError
    throw err;
  }
}

async function dispatch(clients: AnyPatchClients, target: Target, request: PatchRequest): Promise<unknown> {
  const { name, namespace } = target;
  const options = callOptions({ contentType: request.contentType, signal: request.signal });
  if (target.kind === "Pod") {
    const method = request.status ? "patchNamespacedPodStatus" : "patchNamespacedPod";
    const call = clients.core?.[method]?.bind(clients.core);
    if (call === undefined) throw missingClient(`core.${method}`, "CoreV1Api", target);
    return call({ name, namespace, body: request.body }, options);
  }
  const method = request.status ? "patchNamespacedCustomObjectStatus" : "patchNamespacedCustomObject";
  const call = clients.customObjects?.[method]?.bind(clients.customObjects);
  if (call === undefined) throw missingClient(`customObjects.${method}`, "CustomObjectsApi", target);
  const params = { group: GROUP, version: VERSION, plural: PLURALS[target.kind], name, namespace, body: request.body };
  return (await call(params, options)) as unknown;
}

function missingClient(method: string, api: string, target: Target): CocoonError {
  return new CocoonError("ERR_INVALID_ARGUMENT", `patching ${target.kind} ${target.namespace}/${target.name} needs clients.${method} (client-node's ${api})`);
}

import type { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { API_VERSION, Kind, Plural } from "../../apis/v1/groupversion-info.js";
import { CocoonError } from "../../errors.js";
import { checkedNamespaceName, checkedObjectName } from "../path-name.js";

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
export interface AnyPatchClients {
  readonly core?: Partial<Pick<CoreV1Api, "patchNamespacedPod" | "patchNamespacedPodStatus">> | undefined;
  readonly customObjects?: Partial<Pick<CustomObjectsApi, "patchNamespacedCustomObject" | "patchNamespacedCustomObjectStatus">> | undefined;
}

/** Where one patch goes, and the object whose answer it expects. */
export interface Target {
  readonly kind: "Pod" | typeof Kind.CocoonSet | typeof Kind.CocoonHibernation;
  readonly name: string;
  readonly namespace: string;
  /** The caller's `metadata.uid`: an answer with another uid is not the object. Unset when not known. */
  readonly uid?: string | undefined;
}

/** The resource name of each cocoon kind. */
export const PLURALS = { [Kind.CocoonSet]: Plural.CocoonSet, [Kind.CocoonHibernation]: Plural.CocoonHibernation } as const;

/**
 * Works out which resource `obj` is. A missing `kind` counts as a Pod when `apiVersion` is `v1` or
 * missing too, because objects taken from client-node's typed lists (`listNamespacedPod().items`)
 * carry neither. `CocoonSet` and `CocoonHibernation` must have `apiVersion`
 * `cocoonset.cocoonstack.io/v1` or none.
 *
 * The name and namespace go into the request path, so they are checked first ({@link checkedObjectName},
 * {@link checkedNamespaceName}).
 *
 * @param helper - The calling helper, named in the error messages.
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for another kind, or a missing or invalid name or namespace.
 * @internal
 */
export function resolveTarget(obj: KubeObject, helper: string): Target {
  const { apiVersion, kind } = obj;
  const name = obj.metadata?.name;
  const namespace = obj.metadata?.namespace;
  let resolved: Target["kind"] | undefined;
  if ((kind === undefined || kind === "Pod") && (apiVersion === undefined || apiVersion === "v1")) resolved = "Pod";
  else if ((kind === Kind.CocoonSet || kind === Kind.CocoonHibernation) && (apiVersion === undefined || apiVersion === API_VERSION)) {
    resolved = kind;
  }
  if (resolved === undefined) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `cannot patch ${apiVersion ?? "?"}/${kind ?? "?"}: only Pods, CocoonSets and CocoonHibernations`,
    );
  }
  if (!name || !namespace) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `${helper}: cannot write a ${resolved} without metadata.name and metadata.namespace`);
  }
  checkedNamespaceName(namespace, { helper, field: "metadata.namespace" });
  checkedObjectName(name, resolved, { helper, field: "metadata.name" });
  const uid = obj.metadata?.uid;
  return { kind: resolved, name, namespace, ...(typeof uid === "string" && uid !== "" ? { uid } : {}) };
}

/**
 * {@link resolveTarget} for a helper that writes Pods only.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for another kind (`<helper> takes a Pod, got …`), or a missing or invalid name or namespace.
 * @internal
 */
export function resolvePodTarget(obj: KubeObject, helper: string): Target {
  const target = resolveTarget(obj, helper);
  if (target.kind !== "Pod")
    throw new CocoonError("ERR_INVALID_ARGUMENT", `${helper} takes a Pod, got ${target.kind} ${target.namespace}/${target.name}`);
  return target;
}

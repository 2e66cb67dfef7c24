import { ApiException, CoreV1Api, CustomObjectsApi, HttpInfo, type Configuration, type ResponseContext } from "@kubernetes/client-node";
import { GROUP, VERSION, type Plural } from "../../apis/v1/groupversion-info.js";
import { callOptions } from "../call-options.js";

/** One page request of a list: the selectors, the page size and the previous page's `continue`. @internal */
export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  _continue?: string;
}

/** Sends one list request and resolves to the server's JSON, as it came. @internal */
export type Lister = (query: ListQuery, signal: AbortSignal) => Promise<unknown>;

/**
 * Lists a cocoon custom resource through client-node's `CustomObjectsApi`, whose answers are the
 * server's JSON already.
 *
 * @internal
 */
export function customObjectLister(configuration: Configuration, plural: Plural, namespace: string | undefined): Lister {
  const api = new CustomObjectsApi(configuration);
  const base = { group: GROUP, version: VERSION, plural };
  return (query, signal) =>
    namespace === undefined
      ? api.listClusterCustomObject({ ...base, ...query }, callOptions({ signal }))
      : api.listNamespacedCustomObject({ ...base, namespace, ...query }, callOptions({ signal }));
}

/**
 * Lists pods through client-node's `CoreV1Api` (its request, authentication, middleware and HTTP
 * library), handing back the server's JSON instead of deserializing it into `V1Pod` classes:
 * the watch parses pods with a zod schema, as the same pods arrive in watch events.
 *
 * @internal
 */
export function podLister(configuration: Configuration, namespace: string | undefined): Lister {
  const api = new CoreV1Api(configuration, undefined, RAW_POD_LISTS);
  return (query, signal) =>
    namespace === undefined
      ? api.listPodForAllNamespaces(query, callOptions({ signal }))
      : api.listNamespacedPod({ namespace, ...query }, callOptions({ signal }));
}

/** client-node's list response processing, minus the deserialization; errors as client-node throws them. */
async function rawList(response: ResponseContext): Promise<HttpInfo<unknown>> {
  const { httpStatusCode: code, headers, body } = response;
  if (code === 200) return new HttpInfo(code, headers, body, JSON.parse(await body.text()) as unknown);
  if (code === 401) throw new ApiException(code, "Unauthorized", undefined, headers);
  throw new ApiException(code, "Unknown API Status Code!", await response.getBodyAsAny(), headers);
}

/** The two response handlers the pod lists call (`CoreV1Api`'s third constructor argument). */
const RAW_POD_LISTS = {
  listNamespacedPodWithHttpInfo: rawList,
  listPodForAllNamespacesWithHttpInfo: rawList,
} as unknown as NonNullable<ConstructorParameters<typeof CoreV1Api>[2]>;

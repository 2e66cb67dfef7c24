import { CustomObjectsApi, type Configuration } from "@kubernetes/client-node";
import { GROUP, VERSION, type Plural } from "../../apis/v1/groupversion-info.js";
import { callOptions } from "../call-options.js";
import { rawGet } from "./raw-get.js";

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
 * Lists pods as client-node's `CoreV1Api` would (its request, authentication, middleware and HTTP
 * library, by way of {@link rawGet}), handing back the server's JSON instead of deserializing it
 * into `V1Pod` classes: the watch parses pods with a zod schema, as the same pods arrive in watch
 * events.
 *
 * @internal
 */
export function podLister(configuration: Configuration, namespace: string | undefined): Lister {
  const path = namespace === undefined ? "/api/v1/pods" : `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
  return (query, signal) =>
    rawGet(
      configuration,
      path,
      { continue: query._continue, fieldSelector: query.fieldSelector, labelSelector: query.labelSelector, limit: query.limit },
      signal,
    );
}

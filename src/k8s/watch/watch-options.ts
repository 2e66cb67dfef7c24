/**
 * The longest watch event (one line of a watch response) a typed watch takes by default: 16 MiB.
 * The largest object the API server stores is bounded by etcd's request limit (1.5 MiB by default,
 * `--max-request-bytes`); its JSON in an event is larger (escaping, the managed fields), but far
 * under this.
 *
 * @example
 * ```ts
 * const options: WatchOptions = { maxEventBytes: 2 * DEFAULT_MAX_EVENT_BYTES }; // a cluster whose etcd takes larger objects
 * ```
 */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * Options of a typed watch ({@link watchCocoonSets}, {@link watchCocoonHibernations}, {@link watchCocoonPods}).
 *
 * @example
 * ```ts
 * const options: WatchOptions = { namespace: "demo", labelSelector: { team: "agents" }, signal: AbortSignal.timeout(60_000) };
 * for await (const event of watchCocoonSets(clients, options)) console.log(event.type);
 * ```
 */
export interface WatchOptions {
  /** The namespace to watch; all namespaces when it is missing. */
  namespace?: string | undefined;
  /** A label selector: the API's text (`app=a,tier!=db`), or a map of labels that must all equal (`{ app: "a" }`). */
  labelSelector?: string | Readonly<Record<string, string>> | undefined;
  /** A field selector, e.g. `spec.nodeName=node-1` for the pods of one node. */
  fieldSelector?: string | undefined;
  /** Stops the watch: the iteration ends (it does not throw) and no request is sent after it. */
  signal?: AbortSignal | undefined;
  /**
   * Objects per list page (the API's `limit`). Default `0`: one request, as client-node's informer
   * lists, and as client-go's first list is served from the watch cache (the quickest to the first
   * full list). A page size (client-go's pager uses 500) bounds what one answer holds at once, for
   * one more request per page.
   */
  pageSize?: number | undefined;
  /**
   * Seconds the server keeps one watch request open (the API's `timeoutSeconds`); the watch then
   * resumes from its resource version on a new request. Default: a random value between 300 and
   * 600, as client-go's reflector picks, so that many watchers do not reconnect at once. A request
   * the server keeps open past it, plus a tenth of it (at least one second), is dropped and sent
   * again (`retrying`, `ERR_WATCH_STREAM`), whatever the server sent meanwhile.
   */
  timeoutSeconds?: number | undefined;
  /**
   * The longest event (one line of a watch response, in bytes) taken; default
   * {@link DEFAULT_MAX_EVENT_BYTES} (16 MiB), at least 1024. A longer line is not buffered: the
   * request is dropped as soon as the line passes the cap, a `retrying` event (`ERR_WATCH_STREAM`)
   * says so, and the watch lists again.
   */
  maxEventBytes?: number | undefined;
  /**
   * The longest list answer (one page, in bytes) taken, on client-node clients and on a
   * `KubeRequester` alike; default 64 MiB, at least 1024. A longer answer is dropped as it passes
   * the cap (one whose `Content-Length` is past it, before any of it is read), a `retrying` event
   * (`ERR_ANSWER_TOO_LARGE`) says so, and the watch lists again after a wait. Set a `pageSize` to
   * keep each page under it.
   */
  maxListBytes?: number | undefined;
}

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
   * 600, as client-go's reflector picks, so that many watchers do not reconnect at once.
   */
  timeoutSeconds?: number | undefined;
}

import type { Configuration } from "@kubernetes/client-node";
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

/** How the list pages of a watch on client-node clients are read. @internal */
export interface ListerBounds {
  /** The kind listed, for the message: `Pod`. */
  readonly kind: string;
  /** The most bytes of one page; past them the page is dropped with `ERR_ANSWER_TOO_LARGE`. */
  readonly maxListBytes: number;
  /** The deadline of one page. */
  readonly timeoutMs: number;
}

/**
 * Lists `path` (pods, or a cocoon custom resource) as client-node's `CoreV1Api` and
 * `CustomObjectsApi` would build the request (by way of {@link rawGet}), each page read within
 * `maxListBytes`, handing back the server's JSON instead of deserializing it into model classes:
 * the watch parses objects with a zod schema, as the same objects arrive in watch events.
 *
 * @internal
 */
export function configurationLister(configuration: Configuration, path: string, bounds: ListerBounds): Lister {
  const { kind, maxListBytes, timeoutMs } = bounds;
  return (query, signal) =>
    rawGet(
      configuration,
      {
        path,
        query: { continue: query._continue, fieldSelector: query.fieldSelector, labelSelector: query.labelSelector, limit: query.limit },
        signal,
      },
      { maxBytes: maxListBytes, timeoutMs, what: `the ${kind} list` },
    );
}

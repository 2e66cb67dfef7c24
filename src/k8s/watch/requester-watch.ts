import type { KubeRequester } from "../request/kube-request.js";
import { KubeStatusError } from "../request/kube-status-error.js";
import { requestJSON } from "../request/read-answer.js";
import type { WatchTransport } from "./watch-requester.js";

/** The default cap of one list page's answer. @internal */
export const DEFAULT_MAX_LIST_BYTES = 64 * 1024 * 1024;

/** The deadline of one list page. @internal */
export const LIST_TIMEOUT_MS = 60_000;

/**
 * A watch's lists and watch requests on a {@link KubeRequester}: each list page read within
 * `maxListBytes` and a 60 s deadline, the watch bodies handed back as bytes (the watch caps each
 * line), refusals as {@link KubeStatusError}.
 *
 * @internal
 */
export function requesterWatch(requester: KubeRequester, path: string, kind: string, maxListBytes: number): WatchTransport {
  return {
    list: (query, signal) =>
      requestJSON(
        requester,
        {
          method: "GET",
          path,
          query: { continue: query._continue, fieldSelector: query.fieldSelector, labelSelector: query.labelSelector, limit: query.limit },
          signal,
        },
        { maxBytes: maxListBytes, timeoutMs: LIST_TIMEOUT_MS, what: `the ${kind} list` },
      ),
    send: async (url, signal) => {
      const { statusCode, body } = await requester.send({ method: "GET", path: `${url.pathname}${url.search}`, signal });
      return { statusCode, body };
    },
    server: requester.server,
    refused: (code, message, status) => new KubeStatusError(code, JSON.stringify(status ?? { message }), "watch request"),
  };
}

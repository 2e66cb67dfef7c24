/**
 * What `createClients` (client-node's own HTTP library on shared connections) was seen to do, one
 * table per case of k8s-transports.test.ts, one row per client-node line. Rows that differ are the
 * differences a user can see between the lines; docs/guides/writing-a-controller.md lists them.
 *
 * @module
 */
import { createRequire } from "node:module";

/** The client-node major line the suite runs on. */
export type Line = "1.x" | "2.x";
/** One row per client-node line. */
export type Table<T> = Record<Line, T>;

/** How long the reset case waits for a call to settle before recording {@link PENDING}. */
export const PENDING_AFTER_MS = 3_000;
/** What the reset case records for a call that has not settled after {@link PENDING_AFTER_MS}. */
export const PENDING = "still pending after 3 s";

/** The Node major the suite runs on: a connection reset mid-response reads differently on 22 and 24. */
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
/** The observation on Node 22 (seen on 22.23.5) or on Node 24 (24.22.3). */
const onNode = <T>(node22: T, node24: T): T => (NODE_MAJOR === 22 ? node22 : node24);

/** The installed client-node's version: client-node 2 puts it in its User-Agent. */
const CLIENT_NODE_VERSION = (createRequire(import.meta.url)("@kubernetes/client-node/package.json") as { version: string }).version;

/** How many calls the connection-reuse case makes, sequentially and concurrently. */
export const N = 20;

/** What a caller can read off a rejection: class, name, code, message (ports and namespace masked), cause. */
export interface ErrorShape {
  class: string;
  name: string;
  code: unknown;
  message: string;
  cause?: string;
}

// What every row shares is named once; each row spells out what differs.
const REQUESTS = [
  "POST application/json 667 -",
  "GET - - -",
  "PATCH application/json-patch+json 58 -",
  "PATCH application/merge-patch+json 33 -",
  "PATCH application/strategic-merge-patch+json 33 -",
  "PATCH application/apply-patch+yaml 87 -",
  "PATCH application/merge-patch+json 65 -",
  "DELETE application/json - -",
];
const ACCEPT = ["application/json, */*;q=0.8"];
const KEEP_ALIVE = ["keep-alive"];

/** Headers the server saw (distinct values over all requests), each request, and the managers the server named after the User-Agent. */
export const HEADERS: Table<Record<string, string[]>> = {
  "1.x": {
    "user-agent": ["node-fetch/1.0 (+https://github.com/bitinn/node-fetch)"],
    accept: ACCEPT,
    "accept-encoding": ["gzip,deflate"],
    connection: KEEP_ALIVE,
    requests: REQUESTS,
    managedFields: ["node-fetch Update", "transports Apply"],
  },
  // createClients sends the User-Agent client-node 2's makeApiClient sets (undici's own is "undici").
  "2.x": {
    "user-agent": [`kubernetes-client-javascript/${CLIENT_NODE_VERSION}`],
    accept: ACCEPT,
    "accept-encoding": ["gzip, deflate"],
    connection: KEEP_ALIVE,
    requests: REQUESTS,
    managedFields: ["kubernetes-client-javascript Update", "transports Apply"],
  },
};

const apiException = (code: number): ErrorShape => ({ class: "ApiException", name: "Error", code, message: `HTTP-Code: ${String(code)}` });
// Another port is another origin: createClients refuses the hop before anything is sent there, on
// both lines (client-node alone follows it: 1.x with the token, 2.x without it).
const crossOrigin: ErrorShape = {
  class: "CocoonError",
  name: "CocoonError",
  code: "ERR_CROSS_ORIGIN_REDIRECT",
  message:
    "the API server at http://127.0.0.1:PORT redirected a request to http://127.0.0.1:PORT: credentials never leave the API server's origin",
};
const refused = { read: crossOrigin, patched: crossOrigin, redirects: 2, followed: [] };

/** A read and a patch sent to a server that redirects (302, 307) to the apiserver, on another port. */
export const REDIRECTS: Table<Record<string, unknown>> = {
  "1.x": { 302: refused, 307: refused },
  "2.x": { 302: refused, 307: refused },
};

export interface StatusErrorShape extends ErrorShape {
  body: string;
  headers: string[];
}

const RESPONSE_HEADERS = [
  "audit-id",
  "cache-control",
  "content-length",
  "content-type",
  "date",
  "x-kubernetes-pf-flowschema-uid",
  "x-kubernetes-pf-prioritylevel-uid",
];
const statusError = (code: number, body: string): StatusErrorShape => ({ ...apiException(code), body, headers: RESPONSE_HEADERS });
const SAME_STATUS_ERRORS = {
  404: statusError(404, "string of 180, reason NotFound"),
  409: statusError(409, "string of 190, reason AlreadyExists"),
  422: statusError(422, "string of 1893, reason Invalid"),
};

/** The same on both lines: client-node builds these ApiExceptions from the response. */
export const STATUS_ERRORS: Table<Record<string, StatusErrorShape>> = {
  "1.x": SAME_STATUS_ERRORS,
  "2.x": SAME_STATUS_ERRORS,
};

// The helpers (patchAnnotations here) reject an aborted call with the signal's reason, on both lines.
const timeoutReason: ErrorShape = {
  class: "DOMException",
  name: "TimeoutError",
  code: 23,
  message: "The operation was aborted due to timeout",
};
const abortReason: ErrorShape = { class: "DOMException", name: "AbortError", code: 20, message: "This operation was aborted" };
const HELPER_ABORTS = {
  "timeout (AbortSignal.timeout)": timeoutReason,
  "abort in flight": abortReason,
  "abort before the call": abortReason,
};
const URL_PREFIX = "http://127.0.0.1:PORT/api/v1/namespaces/NS/pods/target";
const undiciError = (message: string, cause: string): ErrorShape => ({
  class: "TypeError",
  name: "TypeError",
  code: undefined,
  message,
  cause,
});
const SAME_ON_2X: Record<string, ErrorShape | typeof PENDING> = {
  refused: undiciError("fetch failed", "Error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:PORT"),
  "reset mid-response": undiciError(
    "terminated",
    onNode("SocketError UND_ERR_SOCKET: other side closed", "Error ECONNRESET: read ECONNRESET"),
  ),
  "wrong CA": undiciError("fetch failed", "Error SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain"),
  ...HELPER_ABORTS,
  "abort in flight, client-node's own call": abortReason,
};

/** Refused, reset mid-response, a wrong CA, a timeout and aborts, as the caller's `catch` sees them. */
export const NETWORK_ERRORS: Table<Record<string, ErrorShape | typeof PENDING>> = {
  "1.x": {
    refused: {
      class: "FetchError",
      name: "FetchError",
      code: "ECONNREFUSED",
      message: `request to ${URL_PREFIX} failed, reason: connect ECONNREFUSED 127.0.0.1:PORT`,
    },
    // On Node 22 node-fetch never settles a call whose connection resets mid-body (without a signal).
    "reset mid-response": onNode<ErrorShape | typeof PENDING>(PENDING, {
      class: "FetchError",
      name: "FetchError",
      code: "ECONNRESET",
      message: `Invalid response body while trying to fetch ${URL_PREFIX}: read ECONNRESET`,
    }),
    "wrong CA": {
      class: "FetchError",
      name: "FetchError",
      code: "SELF_SIGNED_CERT_IN_CHAIN",
      message: `request to ${URL_PREFIX.replace("http:", "https:")} failed, reason: self-signed certificate in certificate chain`,
    },
    ...HELPER_ABORTS,
    "abort in flight, client-node's own call": {
      class: "AbortError",
      name: "AbortError",
      code: undefined,
      message: "The user aborted a request.",
    },
  },
  "2.x": SAME_ON_2X,
};

/**
 * TCP connections for N sequential reads on fresh clients, then N concurrent ones on other fresh
 * clients. On client-node 2 the sequential reads took N connections (a new undici dispatcher per
 * request) until keepAliveAuthentication shared the first one built per setting; the concurrent
 * ones take 1 there, as undici 8 offers HTTP/2 by default (`allowH2`) and multiplexes them.
 */
export const CONNECTIONS: Table<{ sequential: number; concurrent: number }> = {
  "1.x": { sequential: 1, concurrent: N },
  "2.x": { sequential: 1, concurrent: 1 },
};

import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";

/**
 * One request to the API server, as {@link KubeRequester.send} takes it: a path on the server the
 * requester is bound to (never a URL: credentials go to that origin only), the query, and the body's
 * exact bytes.
 *
 * @example
 * ```ts
 * const request: KubeRequest = { method: "GET", path: "/api/v1/nodes/cocoon-a", signal: AbortSignal.timeout(10_000) };
 * ```
 */
export interface KubeRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The absolute path, e.g. `/api/v1/namespaces/demo/pods`; each name in it checked and encoded by the caller. */
  readonly path: string;
  /** Query parameters, in the order given; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  /** The body's exact text; sent as it is. */
  readonly body?: string | undefined;
  /** `Content-Type` of the body; `application/json` by default. */
  readonly contentType?: string | undefined;
  /** Ends the request, answered or not, and closes its connection. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The API server's answer to one {@link KubeRequest}: its status and headers, and its body as bytes,
 * which the caller reads (with a cap: `readCappedJSON`) or destroys.
 *
 * @example
 * ```ts
 * const response: KubeResponse = await requester.send({ method: "GET", path: "/version" });
 * response.statusCode; // => 200
 * ```
 */
export interface KubeResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** Destroying it closes the request's connection. */
  readonly body: Readable;
}

/**
 * The one interface the virtual kubelet's functions talk to the API server through: a sender bound
 * to one server and one set of credentials. {@link inClusterRequester} and {@link kubeconfigRequester}
 * build it without `@kubernetes/client-node`; `kubeConfigRequester` in `./k8s` builds it from a
 * client-node `KubeConfig`. Each sends over `node:https`, never follows a redirect, and never sends a
 * credential to another origin than `server`.
 *
 * @example
 * ```ts
 * const requester: KubeRequester = await kubeconfigRequester({ path: process.env["KUBECONFIG"] });
 * const kept = await keepNode(requester, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
 * ```
 */
export interface KubeRequester {
  /** The API server's origin, e.g. `https://10.96.0.1:443`. */
  readonly server: string;
  /** Sends one request; resolves once the status and headers came, with the body unread. */
  send(request: KubeRequest): Promise<KubeResponse>;
  /** Closes the idle keep-alive connections. The requester stays usable. */
  close(): void;
}

/** Tells a {@link KubeRequester} from client-node API clients. @internal */
export function isKubeRequester(value: unknown): value is KubeRequester {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<KubeRequester>).send === "function" &&
    typeof (value as Partial<KubeRequester>).server === "string"
  );
}

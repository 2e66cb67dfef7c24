import type { V1Lease, V1Node } from "@kubernetes/client-node";
import type { KubeRequester } from "../request/kube-request.js";
import { requestJSON } from "../request/read-answer.js";
import { NODE_LEASE_NAMESPACE } from "./lease-namespace.js";

/**
 * The requests the node keeper sends, whichever client carries them: a {@link KubeRequester} or
 * client-node's `CoreV1Api` and `CoordinationV1Api` (`client-node-writes.ts`). Answers are the
 * server's objects, not yet checked to be the one asked for.
 *
 * @internal
 */
export interface NodeWrites {
  createNode(body: V1Node, signal: AbortSignal): Promise<V1Node>;
  readNode(name: string, signal: AbortSignal): Promise<V1Node>;
  replaceNode(name: string, body: V1Node, signal: AbortSignal): Promise<V1Node>;
  /** One strategic merge patch of the `status` subresource. */
  patchNodeStatus(name: string, body: object, signal: AbortSignal): Promise<V1Node>;
  readLease(name: string, signal: AbortSignal): Promise<V1Lease>;
  createLease(body: V1Lease, signal: AbortSignal): Promise<V1Lease>;
  replaceLease(name: string, body: V1Lease, signal: AbortSignal): Promise<V1Lease>;
}

/** `Content-Type` of a strategic merge patch. @internal */
export const STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

const LEASES = `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`;

/**
 * The node keeper's requests on a {@link KubeRequester}: the paths, methods and bodies client-node's
 * generated methods send, every answer read within its cap and the caller's deadline.
 *
 * @internal
 */
export function requesterNodeWrites(requester: KubeRequester): NodeWrites {
  const call = async <T>(
    method: "GET" | "POST" | "PUT" | "PATCH",
    path: string,
    signal: AbortSignal,
    body?: object,
    contentType?: string,
  ) =>
    (await requestJSON(requester, {
      method,
      path,
      signal,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(contentType === undefined ? {} : { contentType }),
    })) as T;
  const node = (name: string): string => `/api/v1/nodes/${encodeURIComponent(name)}`;
  const lease = (name: string): string => `${LEASES}/${encodeURIComponent(name)}`;
  return {
    createNode: (body, signal) => call("POST", "/api/v1/nodes", signal, body),
    readNode: (name, signal) => call("GET", node(name), signal),
    replaceNode: (name, body, signal) => call("PUT", node(name), signal, body),
    patchNodeStatus: (name, body, signal) => call("PATCH", `${node(name)}/status`, signal, body, STRATEGIC_MERGE_PATCH),
    readLease: (name, signal) => call("GET", lease(name), signal),
    createLease: (body, signal) => call("POST", LEASES, signal, body),
    replaceLease: (name, body, signal) => call("PUT", lease(name), signal, body),
  };
}

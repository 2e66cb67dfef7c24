import { PatchStrategy, V1MicroTime, type V1Lease } from "@kubernetes/client-node";
import { callOptions } from "../call-options.js";
import type { KeepNodeClients } from "./keep-node.js";
import { NODE_LEASE_NAMESPACE } from "./lease-namespace.js";
import type { NodeWrites } from "./node-writes.js";

/** client-node's serializer writes a `V1MicroTime` with six fractional digits; a string would not go through it. */
function withMicroTime(lease: V1Lease): V1Lease {
  const renewTime = lease.spec?.renewTime as unknown;
  if (typeof renewTime === "string" && lease.spec !== undefined) lease.spec.renewTime = new V1MicroTime(Date.parse(renewTime));
  return lease;
}

/**
 * The node keeper's requests through client-node's `CoreV1Api` and `CoordinationV1Api`. Loaded only
 * when {@link keepNode} is given client-node clients.
 *
 * @internal
 */
export function clientNodeWrites(clients: KeepNodeClients): NodeWrites {
  const { core, coordination } = clients;
  const namespace = NODE_LEASE_NAMESPACE;
  return {
    createNode: (body, signal) => core.createNode({ body }, callOptions({ signal })),
    readNode: (name, signal) => core.readNode({ name }, callOptions({ signal })),
    replaceNode: (name, body, signal) => core.replaceNode({ name, body }, callOptions({ signal })),
    patchNodeStatus: (name, body, signal) =>
      core.patchNodeStatus({ name, body }, callOptions({ contentType: PatchStrategy.StrategicMergePatch, signal })),
    readLease: (name, signal) => coordination.readNamespacedLease({ name, namespace }, callOptions({ signal })),
    createLease: (body, signal) => coordination.createNamespacedLease({ namespace, body: withMicroTime(body) }, callOptions({ signal })),
    replaceLease: (name, body, signal) =>
      coordination.replaceNamespacedLease({ name, namespace, body: withMicroTime(body) }, callOptions({ signal })),
  };
}

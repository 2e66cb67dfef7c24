/**
 * The namespace of the node Leases (`kube-node-lease`): each node's Lease is named after the node,
 * and the node lifecycle controller reads it as the node's heartbeat.
 *
 * @example
 * ```ts
 * const lease = await clients.coordination.readNamespacedLease({ name: "cocoon-a", namespace: NODE_LEASE_NAMESPACE });
 * ```
 */
export const NODE_LEASE_NAMESPACE = "kube-node-lease";

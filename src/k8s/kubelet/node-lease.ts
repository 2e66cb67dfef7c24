import { V1MicroTime, type CoordinationV1Api, type V1Lease } from "@kubernetes/client-node";
import { isConflict, isNotFound } from "../api-errors.js";
import { checkAnswer } from "../answer-identity.js";
import { callOptions } from "../call-options.js";

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

/** The Lease methods the keeper uses ({@link CocoonClients}' `coordination` fits). @internal */
export type LeaseApi = Pick<CoordinationV1Api, "readNamespacedLease" | "createNamespacedLease" | "replaceNamespacedLease">;

/** The Node a Lease belongs to: its name and uid, for the owner reference. @internal */
export interface LeaseOwner {
  readonly name: string;
  readonly uid: string;
}

/**
 * The node's Lease renewed at `now`, as the kubelet and virtual-kubelet write it: holder = the node,
 * `leaseDurationSeconds`, `renewTime`, and an owner reference to the Node, so the garbage collector
 * removes the Lease with the node. `base` (the stored Lease) keeps its `resourceVersion`; an owner
 * reference to another uid (a node deleted and created again) is replaced.
 *
 * @internal
 */
export function renewedLease(owner: LeaseOwner, durationSeconds: number, now: Date, base?: V1Lease): V1Lease {
  const ownerReferences = [{ apiVersion: "v1", kind: "Node", name: owner.name, uid: owner.uid }];
  const kept = base?.metadata?.ownerReferences?.some((r) => r.kind === "Node" && r.uid === owner.uid);
  const lease: V1Lease = base === undefined ? {} : structuredClone(base); // a plain copy: client-node's models are classes
  lease.apiVersion = "coordination.k8s.io/v1";
  lease.kind = "Lease";
  lease.metadata = Object.assign(lease.metadata ?? {}, { name: owner.name, namespace: NODE_LEASE_NAMESPACE });
  if (!kept) lease.metadata.ownerReferences = ownerReferences;
  lease.spec = Object.assign(lease.spec ?? {}, {
    holderIdentity: owner.name,
    leaseDurationSeconds: durationSeconds,
    renewTime: new V1MicroTime(now.getTime()),
  });
  return lease;
}

/**
 * Renews the node's Lease: one PUT of the last stored copy when there is one, else a GET, then a
 * create (404) or a PUT. A conflict (someone else wrote it) drops the stored copy, so the next
 * renewal reads it again, as the kubelet does.
 *
 * @returns The stored Lease; its `resourceVersion` makes the next renewal one request.
 * @throws The API server's error (client-node's `ApiException`), or the signal's reason.
 * @internal
 */
export async function renewLease(
  api: LeaseApi,
  owner: LeaseOwner,
  durationSeconds: number,
  last: V1Lease | undefined,
  signal: AbortSignal,
): Promise<V1Lease> {
  const options = callOptions({ signal });
  const asked = { kind: "Lease", namespace: NODE_LEASE_NAMESPACE, name: owner.name };
  const checked = (answer: V1Lease, verb: string): V1Lease => (checkAnswer(answer, asked, verb), answer);
  const put = async (base: V1Lease): Promise<V1Lease> => {
    const body = renewedLease(owner, durationSeconds, new Date(), base);
    return checked(await api.replaceNamespacedLease({ name: owner.name, namespace: NODE_LEASE_NAMESPACE, body }, options), "replace");
  };
  if (last !== undefined) {
    try {
      return await put(last);
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
  let stored: V1Lease;
  try {
    stored = await api.readNamespacedLease({ name: owner.name, namespace: NODE_LEASE_NAMESPACE }, options);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const body = renewedLease(owner, durationSeconds, new Date());
    return checked(await api.createNamespacedLease({ namespace: NODE_LEASE_NAMESPACE, body }, options), "create");
  }
  return put(checked(stored, "get"));
}

import type { V1Lease } from "@kubernetes/client-node";
import { isConflict, isNotFound } from "../api-errors.js";
import { checkAnswer } from "../answer-identity.js";
import { NODE_LEASE_NAMESPACE } from "./lease-namespace.js";
import type { NodeWrites } from "./node-writes.js";

export { NODE_LEASE_NAMESPACE } from "./lease-namespace.js";

/** A `metav1.MicroTime` as the API server writes it: RFC 3339 in UTC with six fractional digits. */
const microTimeText = (now: Date): string => now.toISOString().replace(/Z$/, "000Z");

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
    renewTime: microTimeText(now) as unknown as Date, // sent as the text; client-node's path makes it a V1MicroTime
  });
  return lease;
}

/**
 * Renews the node's Lease: one PUT of the last stored copy when there is one, else a GET, then a
 * create (404) or a PUT. A conflict (someone else wrote it) drops the stored copy, so the next
 * renewal reads it again, as the kubelet does.
 *
 * @returns The stored Lease; its `resourceVersion` makes the next renewal one request.
 * @throws The API server's error (client-node's `ApiException`, or {@link KubeStatusError}), or the signal's reason.
 * @internal
 */
export async function renewLease(
  api: NodeWrites,
  owner: LeaseOwner,
  durationSeconds: number,
  last: V1Lease | undefined,
  signal: AbortSignal,
): Promise<V1Lease> {
  const asked = { kind: "Lease", namespace: NODE_LEASE_NAMESPACE, name: owner.name };
  const checked = (answer: V1Lease, verb: string): V1Lease => (checkAnswer(answer, asked, verb), answer);
  const put = async (base: V1Lease): Promise<V1Lease> => {
    const body = renewedLease(owner, durationSeconds, new Date(), base);
    return checked(await api.replaceLease(owner.name, body, signal), "replace");
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
    stored = await api.readLease(owner.name, signal);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const body = renewedLease(owner, durationSeconds, new Date());
    return checked(await api.createLease(body, signal), "create");
  }
  return put(checked(stored, "get"));
}

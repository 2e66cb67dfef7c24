import type { V1Node, V1NodeCondition, V1NodeStatus } from "@kubernetes/client-node";
import { kubeTimeText } from "../../internal/kube-time.js";
import { checkAnswer } from "../answer-identity.js";
import type { NodeWrites } from "./node-writes.js";

/** A condition as the keeper sends it: times as RFC 3339 text at the server's second precision. @internal */
export interface SentCondition {
  type: string;
  status: string;
  reason?: string | undefined;
  message?: string | undefined;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

/**
 * The conditions to send at `now`: every heartbeat is `now`; a condition keeps its transition time
 * from `previous` while its status stays the same, else it transitioned `now` (kubelet's
 * `setNodeReadyCondition`).
 *
 * @internal
 */
export function stampConditions(conditions: readonly V1NodeCondition[], previous: readonly SentCondition[], now: Date): SentCondition[] {
  const at = kubeTimeText(now) ?? "";
  return conditions.map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const lastTransitionTime = before?.status === c.status ? before.lastTransitionTime : at;
    return {
      type: c.type,
      status: c.status,
      ...(c.reason !== undefined && { reason: c.reason }),
      ...(c.message !== undefined && { message: c.message }),
      lastHeartbeatTime: at,
      lastTransitionTime,
    };
  });
}

/**
 * The node's conditions with Ready set to `False` (the virtual kubelet stopped), the others as they are.
 *
 * @internal
 */
export function notReady(conditions: readonly V1NodeCondition[], message: string): V1NodeCondition[] {
  return conditions.map((c) =>
    c.type === "Ready" ? Object.assign(structuredClone(c), { status: "False", reason: "KubeletNotReady", message }) : c,
  );
}

/**
 * Sends the node's status through the `status` subresource as one strategic merge patch, as the
 * kubelet does: conditions and addresses merge by `type`, so a condition another writer owns stays.
 *
 * @returns The server's copy of the node.
 * @throws The API server's error, `ERR_UNEXPECTED_OBJECT` when the answer is another object, or the signal's reason.
 * @internal
 */
export async function patchNodeStatus(
  api: NodeWrites,
  name: string,
  status: V1NodeStatus,
  conditions: readonly SentCondition[],
  signal: AbortSignal,
): Promise<V1Node> {
  const body = { status: Object.assign(structuredClone(status), { conditions }) };
  const answer = await api.patchNodeStatus(name, body, signal);
  checkAnswer(answer, { kind: "Node", namespace: "", name }, "patch");
  return answer;
}

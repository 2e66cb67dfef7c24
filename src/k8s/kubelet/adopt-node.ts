import type { V1Node, V1Taint } from "@kubernetes/client-node";
import { isAlreadyExists, isConflict } from "../api-errors.js";
import { checkAnswer } from "../answer-identity.js";
import type { NodeWrites } from "./node-writes.js";

const sameTaint = (a: V1Taint, b: V1Taint): boolean => a.key === b.key && a.effect === b.effect;

/**
 * `stored` with what `wanted` asks for merged in, or `undefined` when it already has it all: the
 * wanted labels (they win), taints it lacks (one per key and effect; taints the server or a
 * controller put there, `node.kubernetes.io/not-ready` among them, stay), a cordon, and a
 * `providerID` when none is set (it cannot change once set).
 *
 * @internal
 */
export function adoptedNode(stored: V1Node, wanted: V1Node): V1Node | undefined {
  const labels = { ...stored.metadata?.labels, ...wanted.metadata?.labels };
  const taints = [...(stored.spec?.taints ?? [])];
  for (const taint of wanted.spec?.taints ?? []) if (!taints.some((t) => sameTaint(t, taint))) taints.push(taint);
  const providerID = stored.spec?.providerID ?? wanted.spec?.providerID;
  const unschedulable = stored.spec?.unschedulable === true || wanted.spec?.unschedulable === true;
  const same =
    Object.entries(labels).every(([k, v]) => stored.metadata?.labels?.[k] === v) &&
    taints.length === (stored.spec?.taints?.length ?? 0) &&
    providerID === stored.spec?.providerID &&
    unschedulable === (stored.spec?.unschedulable === true);
  if (same) return undefined;
  const adopted = structuredClone(stored); // a plain copy: client-node's models are classes
  adopted.metadata = Object.assign(adopted.metadata ?? {}, { labels });
  adopted.spec ??= {};
  if (taints.length > 0) adopted.spec.taints = taints;
  if (providerID !== undefined) adopted.spec.providerID = providerID;
  if (unschedulable) adopted.spec.unschedulable = true;
  return adopted;
}

/**
 * Creates the Node (without status: the `status` subresource carries it), or adopts the one of
 * that name already there (a virtual kubelet restarted): merges in its labels and taints with
 * {@link adoptedNode} through a PUT at the read `resourceVersion`, read again on a conflict.
 *
 * @returns The server's copy of the node.
 * @internal
 */
export async function createOrAdoptNode(api: NodeWrites, body: V1Node, signal: AbortSignal): Promise<V1Node> {
  const name = body.metadata?.name ?? "";
  const asked = { kind: "Node", namespace: "", name };
  const { status: _status, ...withoutStatus } = body;
  try {
    const created = await api.createNode({ ...withoutStatus, apiVersion: "v1", kind: "Node" }, signal);
    checkAnswer(created, asked, "create");
    return created;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  for (let attempt = 1; ; attempt++) {
    const stored = await api.readNode(name, signal);
    checkAnswer(stored, asked, "get");
    const adopted = adoptedNode(stored, body);
    if (adopted === undefined) return stored;
    try {
      const replaced = await api.replaceNode(name, adopted, signal);
      checkAnswer(replaced, asked, "replace");
      return replaced;
    } catch (err) {
      if (!isConflict(err) || attempt >= 3) throw err;
    }
  }
}

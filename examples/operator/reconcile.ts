/**
 * One reconcile of a CocoonSet: read its pods, then either keep its agents running or, while the
 * set is suspended, hibernate them (and, with `hibernatePolicy: release`, give up the seat).
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchCocoonSetGeneration, type CocoonClients } from "@cocoonstack/cocoon-common/k8s";
import { Label, readCocoonSetGeneration } from "@cocoonstack/cocoon-common/meta";
import type { CocoonSet } from "@cocoonstack/cocoon-common/apis/v1";
import type { OCIRegistry } from "@cocoonstack/cocoon-common/oci";
import { ensureAgentPods } from "./agent-pods.js";
import { hibernateOrRelease } from "./seat-release.js";
import { finishWake } from "./wake.js";

/** What a reconcile works with. */
export interface ReconcileContext {
  readonly clients: CocoonClients;
  readonly registry: OCIRegistry;
  readonly log: (line: string) => void;
}

/** The live pods of `set`, by name. */
async function setPods(clients: CocoonClients, set: CocoonSet): Promise<Map<string, V1Pod>> {
  const { items } = await clients.core.listNamespacedPod({
    namespace: set.metadata.namespace ?? "",
    labelSelector: `${Label.CocoonSet}=${set.metadata.name ?? ""}`,
  });
  return new Map(items.map((pod) => [pod.metadata?.name ?? "", pod]));
}

/** Stamps the set's generation on a pod that carries an older one: the virtual kubelet reports its lifecycle at it. */
async function stampGeneration(clients: CocoonClients, set: CocoonSet, pod: V1Pod): Promise<V1Pod> {
  const generation = set.metadata.generation ?? 0;
  if (pod.metadata?.deletionTimestamp || readCocoonSetGeneration(pod) === generation) return pod;
  return patchCocoonSetGeneration(clients, pod, generation);
}

/** Brings the pods of `set` one step closer to what its spec asks for. */
export async function reconcileSet(context: ReconcileContext, set: CocoonSet): Promise<void> {
  const pods = await setPods(context.clients, set);
  for (const [name, pod] of pods) pods.set(name, await stampGeneration(context.clients, set, pod));
  if (set.spec?.suspend) {
    await hibernateOrRelease(context, set, pods);
    return;
  }
  await ensureAgentPods(context, set, pods);
  await finishWake(context, set, pods);
}

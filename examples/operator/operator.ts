/**
 * The operator's loop: whenever a CocoonSet or a cocoon pod of the namespace changes (typed
 * watches), list the CocoonSets and reconcile each. A failed reconcile is logged and retried on the
 * next change or resync, as a controller's work queue would.
 *
 * @module
 */
import { watchCocoonPods, watchCocoonSets, type CocoonClients } from "@cocoonstack/cocoon-common/k8s";
import type { OCIRegistry } from "@cocoonstack/cocoon-common/oci";
import { changeTrigger } from "../shared/change-trigger.js";
import { reconcileSet } from "./reconcile.js";

/** What the operator works with. */
export interface OperatorOptions {
  readonly clients: CocoonClients;
  /** The snapshot registry: the seat release and the wake ask it for `<vm>:hibernate`. */
  readonly registry: OCIRegistry;
  readonly namespace: string;
  readonly signal: AbortSignal;
  /** How long to wait for a change before reconciling anyway; default 5 s. */
  readonly resyncMs?: number;
  readonly log?: (line: string) => void;
}

/** Reconciles every CocoonSet of the namespace until `signal` aborts. */
export async function runOperator(options: OperatorOptions): Promise<void> {
  const { clients, namespace, signal, resyncMs = 5_000, log = console.log } = options;
  const watches = [watchCocoonSets(clients, { namespace, signal }), watchCocoonPods(clients, { namespace, signal })];
  const trigger = changeTrigger(watches, { signal, resyncMs, log });
  do {
    const sets = await clients.cocoonSets.list({ namespace }).catch((err: unknown) => log(`list CocoonSets: ${String(err)}`));
    for (const set of sets?.items ?? []) {
      if (signal.aborted) return;
      await reconcileSet({ ...options, log }, set).catch((err: unknown) => log(`reconcile ${set.metadata.name ?? ""}: ${String(err)}`));
    }
  } while (await trigger.next());
}

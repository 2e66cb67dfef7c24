/**
 * The pods of a running set, built by the package as the Go operator builds them: the main agent
 * (or, after a seat release, the wake pod), the sub-agents bound to the main agent's node, and the
 * toolboxes. A live pod that no longer matches its set (the drift checks) is deleted and rebuilt.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { patchHibernateState } from "@cocoonstack/cocoon-common/k8s";
import {
  buildMainPod,
  buildSubAgentPod,
  buildToolboxPod,
  buildWakePod,
  LifecycleState,
  readLifecycleState,
  parseVMSpec,
  podSpecMatchesAgent,
  podSpecMatchesToolbox,
  readHibernateState,
  type CocoonPod,
} from "@cocoonstack/cocoon-common/meta";
import { HibernatePolicy, type CocoonSet } from "@cocoonstack/cocoon-common/apis/v1";
import { hasHibernateSnapshot } from "@cocoonstack/cocoon-common/oci";
import type { ReconcileContext } from "./reconcile.js";

/** A pod the set should have, and how to tell whether a live one still matches it. */
interface Wanted {
  readonly pod: CocoonPod;
  readonly matches: (live: V1Pod) => boolean;
}

/** The main pod to create: the wake pod when a released seat left `<vm>:hibernate` in the registry. */
async function mainPodToCreate({ registry }: ReconcileContext, set: CocoonSet): Promise<CocoonPod> {
  const main = buildMainPod(set);
  if (set.spec?.hibernatePolicy !== HibernatePolicy.Release) return main;
  return (await hasHibernateSnapshot(registry, parseVMSpec(main).vmName)) ? buildWakePod(set) : main;
}

/** The sub-agents and toolboxes; sub-agents fork from the main VM on its node, so they wait for it to run. */
function companions(set: CocoonSet, main: V1Pod | undefined): Wanted[] {
  const wanted: Wanted[] = [];
  const mainRuns = main && !main.metadata?.deletionTimestamp && readLifecycleState(main) === LifecycleState.Ready;
  const node = mainRuns ? main.spec?.nodeName : undefined;
  const mainVMName = main ? parseVMSpec(main).vmName : "";
  for (let slot = 1; node && slot <= (set.spec?.agent.replicas ?? 0); slot++) {
    const pod = buildSubAgentPod(set, slot, mainVMName, node);
    wanted.push({ pod, matches: (live) => podSpecMatchesAgent(live, set, slot) });
  }
  for (const toolbox of set.spec?.toolboxes ?? []) {
    wanted.push({ pod: buildToolboxPod(set, toolbox), matches: (live) => podSpecMatchesToolbox(live, set, toolbox) });
  }
  return wanted;
}

/** Creates the pods `set` is missing, replaces drifted ones, and lifts a hibernation the set no longer asks for. */
export async function ensureAgentPods(context: ReconcileContext, set: CocoonSet, pods: Map<string, V1Pod>): Promise<void> {
  const { clients, log } = context;
  const namespace = set.metadata.namespace ?? "";
  const mainName = buildMainPod(set).metadata.name;
  let main = pods.get(mainName);
  if (!main) {
    main = await clients.core.createNamespacedPod({ namespace, body: await mainPodToCreate(context, set) });
    pods.set(mainName, main);
    log(`created ${mainName}`);
  }
  for (const pod of pods.values()) {
    if (readHibernateState(pod) && !pod.metadata?.deletionTimestamp) await patchHibernateState(clients, pod, false); // a retained seat wakes in place
  }
  const wanted = [{ pod: buildMainPod(set), matches: (live: V1Pod) => podSpecMatchesAgent(live, set, 0) }, ...companions(set, main)];
  for (const { pod, matches } of wanted) {
    const live = pods.get(pod.metadata.name);
    if (live?.metadata?.deletionTimestamp) continue;
    if (!live) {
      await clients.core.createNamespacedPod({ namespace, body: pod });
      log(`created ${pod.metadata.name}`);
    } else if (!matches(live)) {
      await clients.core.deleteNamespacedPod({ namespace, name: pod.metadata.name });
      log(`deleted ${pod.metadata.name}: it no longer matches the set; rebuilt on the next pass`);
    }
  }
}

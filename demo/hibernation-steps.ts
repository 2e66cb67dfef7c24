/**
 * Steps 3 to 5 of the demo: suspend, release the seat, wake on the same node (go-contract §6.2).
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import {
  Annotation,
  HibernatePolicy,
  LifecycleState,
  SnapshotTag,
  buildMainPod,
  buildWakePod,
  hibernatePolicyOrDefault,
  isContainerRunning,
  parseVMRuntime,
  parseVMSpec,
  preferredHostnameAffinity,
  readHibernateState,
  readHibernatedOnNode,
  readKeepSnapshotOnDelete,
  readLifecycleStatus,
  readRestoreFromHibernate,
} from "../src/index.js";
import { registerNode } from "../src/testing/index.js";
import {
  finishPodDeletion,
  isNotFound,
  patchCocoonSetGeneration,
  patchHibernateState,
  patchHibernatedOnNode,
  releaseSeat,
} from "../src/k8s/index.js";
import { reportHibernated, reportVMReady, scheduled, watchPod } from "./kubelet.js";
import { getCocoonSet, setPhase, setSuspend } from "./operator.js";
import { CheckFailed, annotations, check, sameJSON, show, step } from "./report.js";
import { BIG_NODE, MAIN, NODE, SET, generation, reportedAt, type Demo } from "./scenario.js";
import { describeProbe, probe, pushHibernateSnapshot } from "./snapshot-registry.js";
import { planKeptSnapshots, STALE_VM } from "./snapshot-cache.js";

/** Step 3: suspend; the operator flags the pod, the virtual kubelet snapshots and reports `hibernated`. */
export async function suspendSet({ clients, namespace, kubeletRegistry }: Demo): Promise<void> {
  step(3, "suspend: the operator flags the pod; the virtual kubelet pushes :hibernate to the registry and reports hibernated");
  let set = await setSuspend(clients, await getCocoonSet(clients, namespace, SET), true);
  show("user", `spec.suspend=true: generation ${generation(set)}`);
  set = await setPhase(clients, set, "Suspending");
  let pod = await clients.core.readNamespacedPod({ name: MAIN, namespace });
  pod = await patchCocoonSetGeneration(clients, pod, set.metadata.generation ?? 0);
  pod = await patchHibernateState(clients, pod, true);
  show("operator", `phase=${set.status?.phase}; ${annotations(pod, Annotation.CocoonSetGeneration, Annotation.Hibernate)}`);
  const vmName = parseVMSpec(pod).vmName;
  const pushed = readHibernateState(pod) ? await pushHibernateSnapshot(kubeletRegistry, vmName) : undefined;
  if (pushed) pod = await reportHibernated(clients, pod);
  const lifecycle = annotations(pod, Annotation.LifecycleState, Annotation.LifecycleObservedGeneration);
  show(
    "kubelet",
    `pushed ${vmName}:${SnapshotTag.Hibernate} (${pushed?.bytes ?? 0} bytes, ${pushed?.manifestDigest.slice(0, 19) ?? "-"}…)`,
    lifecycle,
  );
  check(3, `the virtual kubelet pushed :hibernate and reports hibernated at the set's generation ${generation(set)}`, {
    "the registry holds the pushed manifest by digest":
      pushed !== undefined && (await kubeletRegistry.hasManifest(vmName, pushed.manifestDigest)),
    "lifecycle hibernated at the set's generation": reportedAt(readLifecycleStatus(pod), LifecycleState.Hibernated, set),
  });
}

/** Step 4: stash the node, release the seat; the virtual kubelet reads the flag from the pod it sees deleted. */
export async function releaseTheSeat({ clients, namespace, registry }: Demo): Promise<void> {
  step(4, "release the seat once the registry has :hibernate: stash hibernated-on-node, flag and delete the pod");
  let set = await getCocoonSet(clients, namespace, SET);
  const pod = await clients.core.readNamespacedPod({ name: MAIN, namespace });
  if (hibernatePolicyOrDefault(set.spec?.hibernatePolicy) !== HibernatePolicy.Release)
    throw new Error(`${SET} is not a release-policy set`);
  const verified = await probe(registry, parseVMSpec(pod).vmName);
  show("operator", `hasHibernateSnapshot(${parseVMSpec(pod).vmName}): ${describeProbe(verified)}`);
  if (verified.present !== true)
    throw new CheckFailed(`check 4 failed: the snapshot is not verified, the seat stays: ${describeProbe(verified)}`);
  set = await patchHibernatedOnNode(clients, set, pod.spec?.nodeName ?? null);
  show("operator", `CocoonSet ${SET}: ${annotations(set, Annotation.HibernatedOnNode)}`);
  const watch = await watchPod(clients, pod); // the virtual kubelet's informer, started before the delete
  try {
    const result = await releaseSeat(clients, pod);
    show("operator", `releaseSeat: flagged=${result.flagged} deletion=${result.deletion}`);
    const seen = await watch.next("the deletion", (e) => e.type === "deleted" || e.pod.metadata.deletionTimestamp !== undefined);
    const keep = readKeepSnapshotOnDelete(seen.pod);
    show(
      "kubelet",
      `watch: ${seen.type} ${MAIN} with deletionTimestamp; ${annotations(seen.pod, Annotation.KeepSnapshotOnDelete)}`,
      `-> ${keep ? "keeps" : "removes"} the node-local snapshot of ${parseVMSpec(seen.pod).vmName}, stops the VM`,
    );
    // As a kubelet does once its VM is stopped: grace 0 and this pod's uid, both in the delete's body.
    const deletion = await finishPodDeletion(clients, pod);
    await watch.next("the pod to be gone", (e) => e.type === "deleted");
    show("kubelet", `finishPodDeletion: ${deletion} (grace 0): the seat on ${NODE} is free`);
    const plan = planKeptSnapshots(parseVMSpec(seen.pod).vmName, keep, readHibernatedOnNode(set));
    set = await setPhase(clients, set, "Suspended");
    show("operator", `phase=${set.status?.phase}`);
    const gone = await clients.core.readNamespacedPod({ name: MAIN, namespace }).then(() => false, isNotFound);
    check(
      4,
      `the snapshot was verified first, the set remembers ${NODE}, the virtual kubelet read keep-snapshot-on-delete=true, the pod is gone`,
      {
        "the registry said :hibernate is there before the release": verified.present,
        "the operator's first probe: a 401 challenge, one token, the HEAD again": verified.requests === 2 && verified.tokenRequests === 1,
        [`the set's hibernated-on-node is ${NODE}`]: readHibernatedOnNode(set) === NODE,
        "releaseSeat flagged the pod, then deleted it": result.flagged && result.deletion === "deleted",
        "the pod the virtual kubelet saw deleted reads keep-snapshot-on-delete": keep,
        "the virtual kubelet finished the deletion of that pod (its uid)": deletion === "deleted",
        "the pod is gone": gone,
        "the cache planner keeps the hinted snapshot and evicts only the stale one": plan.evict.map((s) => s.vmName).join() === STALE_VM,
      },
    );
  } finally {
    watch.stop();
  }
}

/**
 * Step 5: wake with restore-from-hibernate and a preferred affinity to the stashed node; kube-scheduler
 * places the pod there although a larger node has joined the pool meanwhile; clear the hint.
 */
export async function wake({ clients, namespace, registry }: Demo): Promise<void> {
  step(5, "wake: probe :hibernate, recreate the main pod to restore on the stashed node; clear the snapshot and the hint");
  const big = await registerNode(clients, { name: BIG_NODE, capacity: { cpu: "64", memory: "256Gi" } });
  show("node", `${BIG_NODE} joins the pool: cpu ${big.status?.allocatable?.cpu}, memory ${big.status?.allocatable?.memory}, all free`);
  let set = await setSuspend(clients, await getCocoonSet(clients, namespace, SET), false);
  show("user", `spec.suspend=false: generation ${generation(set)}`);
  const hint = readHibernatedOnNode(set);
  const vmName = parseVMSpec(buildMainPod(set)).vmName;
  const wakeProbe = await probe(registry, vmName);
  show("operator", `hasHibernateSnapshot(${vmName}): ${describeProbe(wakeProbe)} -> restore`);
  set = await setPhase(clients, set, "Waking");
  const body = wakeProbe.present === true ? buildWakePod(set) : buildMainPod(set);
  let pod: V1Pod = await clients.core.createNamespacedPod({ namespace, body });
  const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0];
  const term = preferred?.preference.matchExpressions?.[0];
  show(
    "operator",
    `phase=${set.status?.phase}; created ${MAIN}: ${annotations(pod, Annotation.RestoreFromHibernate)}`,
    `affinity: preferred weight=${preferred?.weight} ${term?.key} ${term?.operator} [${term?.values?.join(", ")}]`,
  );
  pod = await scheduled(clients, pod);
  show("scheduler", `kube-scheduler placed ${MAIN} on ${pod.spec?.nodeName}, preferred over the larger ${BIG_NODE}`);
  const restore = readRestoreFromHibernate(pod);
  pod = await reportVMReady(clients, pod, { vmID: "d4e5f6", ip: "10.88.0.9", vncPort: 0 });
  const source = pod.spec?.nodeName === hint ? `kept on ${hint}` : "pulled from the registry";
  const how = restore ? `restored ${parseVMSpec(pod).vmName} from its :${SnapshotTag.Hibernate} snapshot (${source})` : "fresh boot";
  show("kubelet", how, annotations(pod, Annotation.LifecycleState, Annotation.LifecycleObservedGeneration));
  if (parseVMRuntime(pod).vmID !== "" && isContainerRunning(pod)) {
    await registry.deleteManifest(vmName, SnapshotTag.Hibernate);
    set = await patchHibernatedOnNode(clients, set, null);
    set = await setPhase(clients, set, "Running");
  }
  const placement = hint === pod.spec?.nodeName ? "hint-node" : "pool";
  const hintNow = `CocoonSet ${SET}: ${annotations(set, Annotation.HibernatedOnNode)}`;
  const cleared = !(await registry.hasManifest(vmName, SnapshotTag.Hibernate));
  show(
    "operator",
    `VM live on ${pod.spec?.nodeName} (placement ${placement}); phase=${set.status?.phase}`,
    hintNow,
    `deleteManifest(${vmName}:${SnapshotTag.Hibernate}): cleared=${cleared}`,
  );
  check(
    5,
    `the probe found :hibernate, the pod woke on ${NODE} from it, ready at generation ${generation(set)}; snapshot and hint cleared`,
    {
      "the wake probe is 1 HEAD with the token cached":
        wakeProbe.present === true && wakeProbe.requests === 1 && wakeProbe.tokenRequests === 0,
      "the :hibernate tag is gone after the wake": cleared,
      [`the affinity is preferredHostnameAffinity("${NODE}") (weight 100)`]: sameJSON(pod.spec?.affinity, preferredHostnameAffinity(NODE)),
      "the pod reads restore-from-hibernate": restore,
      [`kube-scheduler placed the pod on ${NODE}, not on the larger ${BIG_NODE}`]: pod.spec?.nodeName === NODE,
      "lifecycle ready at the set's generation": reportedAt(readLifecycleStatus(pod), LifecycleState.Ready, set),
      "the hibernated-on-node annotation is gone": set.metadata.annotations?.[Annotation.HibernatedOnNode] === undefined,
    },
  );
}

/**
 * The virtual kubelet's loop, for one node: keep the node (its Lease and status), then whenever a pod bound to
 * it changes (a typed watch), list those pods and take the step `decideKubeletAction` picks for each from
 * the pod and what the node holds of its VM: create, hibernate, wake, delete, report failed, or only
 * report. A pod older than the virtual kubelet's own last write to it (`LastWrites`) is skipped.
 *
 * @module
 */
import { watchCocoonPods, type KubeRequester, type WatchedPod } from "@cocoonstack/cocoon-common/kubelet";
import { LastWrites, LifecycleState, VMState, decideKubeletAction, parseVMSpec } from "@cocoonstack/cocoon-common/meta";
import type { OCIRegistry } from "@cocoonstack/cocoon-common/oci";
import { changeTrigger } from "../shared/change-trigger.js";
import { deletePod } from "./delete.js";
import { isVMRunning } from "./fake-vm.js";
import { hibernatePod, reportHibernated } from "./hibernate.js";
import { hasLocalSnapshot } from "./local-snapshots.js";
import { keepKubeletNode } from "./node.js";
import { report } from "./report.js";
import { bootPod, reportReady, wakePod } from "./start.js";

/** What the virtual kubelet's steps work with. */
export interface KubeletContext {
  /** The API server, reached without client-node: `inClusterRequester()` or `kubeconfigRequester()`. */
  readonly clients: KubeRequester;
  readonly registry: OCIRegistry;
  /** The node's data folder: its VMs and snapshots. */
  readonly root: string;
  readonly log: (line: string) => void;
  /** The version of each pod the virtual kubelet's last report came back with. */
  readonly writes: LastWrites;
  /** The uids of the pods whose deletion it finished and the watch has not reported gone yet. */
  readonly deleted: Set<string>;
}

/** The virtual kubelet's settings. */
export interface KubeletOptions extends Omit<KubeletContext, "log" | "writes" | "deleted"> {
  readonly nodeName: string;
  readonly nodeIP: string;
  readonly signal: AbortSignal;
  /** How long to wait for a change before syncing anyway; default 5 s. */
  readonly resyncMs?: number;
  readonly log?: (line: string) => void;
}

/** Brings one pod's VM to what the pod asks for: the decision, mapped onto the fake VMs. */
async function syncPod(context: KubeletContext, pod: WatchedPod): Promise<void> {
  const vmName = parseVMSpec(pod).vmName;
  const onNode = vmName !== "";
  const vm = {
    exists: onNode && (await isVMRunning(context.root, vmName)),
    keptSnapshot: onNode && (await hasLocalSnapshot(context.root, vmName)),
  };
  const decision = decideKubeletAction(pod, vm);
  switch (decision.action) {
    case "delete":
      return deletePod(context, pod, decision);
    case "hibernate":
      await hibernatePod(context, pod);
      return;
    case "create":
      await bootPod(context, pod);
      return;
    case "wake":
      await wakePod(context, pod, decision.from);
      return;
    case "fail":
      await report(context, pod, { state: LifecycleState.Failed, vm: { state: VMState.Absent }, message: decision.message });
      return;
    case "none":
      // Nothing to do to the VM; its report is repeated, which sends nothing when it holds.
      if (decision.reason === "running") await reportReady(context, pod);
      else if (decision.reason === "hibernated") await reportHibernated(context, pod);
  }
}

/** Keeps the node and runs its pods' VMs until `signal` aborts. */
export async function runKubelet(options: KubeletOptions): Promise<void> {
  const { clients, nodeName, signal, resyncMs = 5_000 } = options;
  const log = (line: string): void => (options.log ?? console.log)(`[${nodeName}] ${line}`);
  const context: KubeletContext = { ...options, log, writes: new LastWrites(), deleted: new Set() };
  const node = await keepKubeletNode(clients, { name: nodeName, nodeIP: options.nodeIP, signal, log });
  const fieldSelector = `spec.nodeName=${nodeName}`;
  const watch = watchCocoonPods(clients, { fieldSelector, signal });
  const trigger = changeTrigger([watch], { signal, resyncMs, log });
  try {
    do {
      // The watch's own copies, as last seen: no list request of the virtual kubelet's own. A pod whose
      // deletion was finished stays in them until the watch's event says it is gone: skip it till then.
      const pods = watch.list();
      const present = new Set(pods.map((pod) => pod.metadata.uid));
      for (const uid of context.deleted) if (!present.has(uid)) context.deleted.delete(uid);
      for (const pod of pods) {
        if (signal.aborted) return;
        if (context.deleted.has(pod.metadata.uid)) continue;
        if (context.writes.isStale(pod)) continue; // read from before the virtual kubelet's own last write to it
        await syncPod(context, pod).catch((err: unknown) => log(`${pod.metadata.name}: ${String(err)}`));
      }
    } while (await trigger.next());
  } finally {
    await node.stopped; // the node marked not ready
  }
}

/**
 * The node side of the demo: waiting for kube-scheduler's placement, and what the agent (vk-cocoon, a virtual
 * kubelet) writes back, all through the library's annotation contracts.
 *
 * @module
 */
import { Watch, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { LifecycleState, lifecycleStatusAnnotations, readCocoonSetGeneration, vmRuntimeAnnotations, type VMRuntime } from "../src/index.js";
import { patchAnnotations, patchStatus, type CocoonClients } from "../src/k8s/index.js";
import { CheckFailed } from "./report.js";

/** Waits until kube-scheduler has placed `pod` (its `spec.nodeName` is set); returns the placed pod. */
export async function scheduled(clients: CocoonClients, pod: V1Pod): Promise<V1Pod> {
  const watch = await watchPod(clients.kubeConfig, pod);
  try {
    return (await watch.next(`kube-scheduler to place ${pod.metadata?.name ?? ""}`, (e) => Boolean(e.pod.spec?.nodeName), 30_000)).pod;
  } finally {
    watch.stop();
  }
}

/** Reports a running VM: runtime annotations, lifecycle `ready` at the pod's stamped generation, a running container. */
export async function reportVMReady(clients: CocoonClients, pod: V1Pod, runtime: VMRuntime): Promise<V1Pod> {
  const lifecycle = { state: LifecycleState.Ready, observedGeneration: readCocoonSetGeneration(pod), message: "" };
  const annotated = await patchAnnotations(clients, pod, { ...vmRuntimeAnnotations(runtime), ...lifecycleStatusAnnotations(lifecycle) });
  return patchStatus(clients, annotated, (copy) => {
    copy.status = {
      phase: "Running",
      containerStatuses: [
        {
          name: "agent",
          image: "ghcr.io/cocoonstack/placeholder:latest",
          imageID: "",
          ready: true,
          restartCount: 0,
          state: { running: {} },
        },
      ],
    };
  });
}

/** Reports lifecycle `hibernated` at the pod's stamped generation (the VM was snapshotted to `:hibernate`). */
export async function reportHibernated(clients: CocoonClients, pod: V1Pod): Promise<V1Pod> {
  const lifecycle = { state: LifecycleState.Hibernated, observedGeneration: readCocoonSetGeneration(pod), message: "" };
  return patchAnnotations(clients, pod, lifecycleStatusAnnotations(lifecycle));
}

/** One event of a {@link PodWatch}. */
export interface PodEvent {
  readonly type: string;
  readonly pod: V1Pod;
}

/** A watch on one pod, like the agent's informer; see {@link watchPod}. */
export interface PodWatch {
  /** Resolves to the first event (already seen or still to come) that matches; rejects after `timeoutMs`. */
  next(what: string, match: (event: PodEvent) => boolean, timeoutMs?: number): Promise<PodEvent>;
  /** Ends the watch. */
  stop(): void;
}

/** Watches `pod` from its `resourceVersion` on, so no later change is missed. */
export async function watchPod(kubeConfig: KubeConfig, pod: V1Pod): Promise<PodWatch> {
  const seen: PodEvent[] = [];
  const waiters = new Set<() => void>();
  const path = `/api/v1/namespaces/${pod.metadata?.namespace ?? ""}/pods`;
  const query = { fieldSelector: `metadata.name=${pod.metadata?.name ?? ""}`, resourceVersion: pod.metadata?.resourceVersion };
  const notify = (type: string, obj: V1Pod) => {
    seen.push({ type, pod: obj });
    for (const waiter of waiters) waiter();
  };
  const controller = await new Watch(kubeConfig).watch(path, query, notify, () => undefined);
  return {
    next(what, match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const done = () => {
          waiters.delete(look);
          clearTimeout(timer);
        };
        const look = () => {
          const hit = seen.find(match);
          if (hit) {
            done();
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new CheckFailed(`no watch event for ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(look);
        look();
      });
    },
    stop: () => controller.abort(),
  };
}

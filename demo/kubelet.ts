/**
 * The node side of the demo: waiting for kube-scheduler's placement, and what the virtual kubelet (vk-cocoon)
 * writes back, all through the library's annotation contracts.
 *
 * @module
 */
import type { V1Pod } from "@kubernetes/client-node";
import { LifecycleState, lifecycleStatusAnnotations, readCocoonSetGeneration, vmRuntimeAnnotations, type VMRuntime } from "../src/index.js";
import { patchAnnotations, patchStatus, watchCocoonPods, type CocoonClients, type WatchedPod } from "../src/k8s/index.js";
import { CheckFailed } from "./report.js";

/** Waits until kube-scheduler has placed `pod` (its `spec.nodeName` is set); returns the placed pod. */
export async function scheduled(clients: CocoonClients, pod: V1Pod): Promise<V1Pod> {
  const name = pod.metadata?.name ?? "";
  const watch = await watchPod(clients, pod);
  try {
    await watch.next(`kube-scheduler to place ${name}`, (e) => Boolean(e.pod.spec.nodeName), 30_000);
  } finally {
    watch.stop();
  }
  return clients.core.readNamespacedPod({ name, namespace: pod.metadata?.namespace ?? "" });
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
  readonly type: "added" | "modified" | "deleted";
  readonly pod: WatchedPod;
}

/** A watch on one pod, like the virtual kubelet's informer; see {@link watchPod}. */
export interface PodWatch {
  /** Resolves to the first event (already seen or still to come) that matches; rejects after `timeoutMs`. */
  next(what: string, match: (event: PodEvent) => boolean, timeoutMs?: number): Promise<PodEvent>;
  /** Ends the watch. */
  stop(): void;
}

/**
 * Watches `pod` with the library's typed pod watch (its name as a field selector); resolves once
 * the watch has listed it, so no later change is missed.
 */
export async function watchPod(clients: CocoonClients, pod: V1Pod): Promise<PodWatch> {
  const seen: PodEvent[] = [];
  const waiters = new Set<() => void>();
  const controller = new AbortController();
  const events = watchCocoonPods(clients, {
    namespace: pod.metadata?.namespace ?? "",
    fieldSelector: `metadata.name=${pod.metadata?.name ?? ""}`,
    signal: controller.signal,
  });
  let synced: () => void = () => undefined;
  const listed = new Promise<void>((resolve) => (synced = resolve));
  const ended = (async () => {
    for await (const event of events) {
      if (event.type === "synced") synced();
      if (event.type !== "added" && event.type !== "modified" && event.type !== "deleted") continue;
      seen.push({ type: event.type, pod: event.object });
      for (const waiter of waiters) waiter();
    }
  })();
  await Promise.race([listed, ended]);
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

/**
 * The watchers bench/watch.bench.ts compares, each behind one shape: start, resolve once the
 * first full list is in, count the change events that follow, stop.
 */
import { CoreV1Api, makeInformer, type KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { createClients, watchCocoonPods } from "../src/k8s/index.js";
import { Label } from "../src/meta/index.js";

/** A running watcher. */
export interface Watcher {
  /** Resolves when the first full list has been delivered. */
  readonly listed: Promise<void>;
  /** Change events (updates and deletions) seen after the list. */
  changes(): number;
  /** Deletions seen after the list. */
  deletions(): number;
  /** Stops it; resolves when it has let go of its connections. */
  stop(): Promise<void>;
}

/** A way of watching a namespace's cocoon pods. */
export interface WatcherVariant {
  readonly key: string;
  readonly name: string;
  /** Starts watching the `expected` pods of `namespace`. */
  start(kubeConfig: KubeConfig, namespace: string, expected: number): Watcher;
}

/** The typed watch, with list pages of `pageSize` (0, its default: one request). */
function typed(key: string, name: string, pageSize: number): WatcherVariant {
  return {
    key,
    name,
    start(kubeConfig, namespace) {
      const clients = createClients(kubeConfig);
      const controller = new AbortController();
      let changes = 0;
      let deletions = 0;
      let synced: () => void = () => undefined;
      const listed = new Promise<void>((resolve) => (synced = resolve));
      const watch = watchCocoonPods(clients, { namespace, pageSize, signal: controller.signal });
      const done = (async () => {
        for await (const event of watch) {
          if (event.type === "synced") synced();
          else if (event.type === "modified") changes++;
          else if (event.type === "deleted") {
            changes++;
            deletions++;
          } else if (event.type === "invalid") throw new Error(`bench: invalid pod: ${event.error.message}`);
          else if (event.type === "retrying") console.error(`bench: the typed watch retries: ${String(event.error)}`);
        }
      })();
      return {
        listed: Promise.race([listed, done]),
        changes: () => changes,
        deletions: () => deletions,
        stop: async () => {
          controller.abort();
          await done;
          clients.close();
        },
      };
    },
  };
}

/** client-node's own informer, as its README writes one: `makeInformer` over `listNamespacedPod`. */
const informer: WatcherVariant = {
  key: "informer",
  name: "client-node makeInformer",
  start(kubeConfig, namespace, expected) {
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const selector = Label.CocoonSet;
    const watcher = makeInformer<V1Pod>(
      kubeConfig,
      `/api/v1/namespaces/${namespace}/pods`,
      () => core.listNamespacedPod({ namespace, labelSelector: selector }),
      selector,
    );
    let phase: "list" | "watch" = "list";
    let adds = 0;
    let changes = 0;
    let deletions = 0;
    let synced: () => void = () => undefined;
    const listed = new Promise<void>((resolve) => (synced = resolve));
    // The list's objects are added one by one as it is applied; the last one ends the list.
    watcher.on("add", () => {
      if (++adds !== expected) return;
      phase = "watch";
      synced();
    });
    watcher.on("update", () => {
      if (phase === "watch") changes++;
    });
    watcher.on("delete", () => {
      if (phase !== "watch") return;
      changes++;
      deletions++;
    });
    let stopping = false;
    watcher.on("error", (err: unknown) => {
      if (!stopping) console.error(`bench: informer error: ${String(err)}`); // stop() aborts its watch, which it reports as an error
    });
    void watcher.start();
    const stop = (): Promise<void> => {
      stopping = true;
      return watcher.stop();
    };
    return { listed, changes: () => changes, deletions: () => deletions, stop };
  },
};

/** Every variant, by key; the first is the base of the ratios. */
export const WATCHER_VARIANTS: readonly WatcherVariant[] = [
  informer,
  typed("typed", "watchCocoonPods", 0),
  typed("typed-pages", "watchCocoonPods, pages of 500", 500),
];

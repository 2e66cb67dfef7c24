import type { KubeConfig, Configuration } from "@kubernetes/client-node";
import type { z } from "zod";
import { CocoonError } from "../../errors.js";
import { checkedNamespaceName } from "../path-name.js";
import type { ObjectRef } from "../resources/resource-options.js";
import { EventQueue } from "./event-queue.js";
import { isKubeRequester, type KubeRequester } from "../request/kube-request.js";
import { InvalidObject, ObjectStore, parseWatched } from "./object-store.js";
import type { WatchEvent } from "./watch-event.js";
import { runWatchLoop, type WatchState } from "./watch-loop.js";
import { DEFAULT_MAX_EVENT_BYTES, type WatchOptions } from "./watch-options.js";
import { DEFAULT_MAX_LIST_BYTES, LIST_TIMEOUT_MS, requesterWatch } from "./requester-watch.js";
import type { WatchTransport } from "./watch-requester.js";

/**
 * A typed watch: iterate it (once) for its events; between events, `get` and `list` read the
 * objects as last seen. Made by {@link watchCocoonSets}, {@link watchCocoonHibernations} and
 * {@link watchCocoonPods}; it starts when the iteration starts and stops when the iteration ends
 * (`break`, `return`, a thrown error) or the options' signal aborts.
 *
 * @typeParam T - The object type.
 * @example
 * ```ts
 * const sets = watchCocoonSets(clients, { namespace: "demo", signal });
 * for await (const event of sets) {
 *   if (event.type === "synced") console.log(sets.list().length, "sets at", sets.resourceVersion);
 * }
 * ```
 */
export interface CocoonWatch<T> extends AsyncIterable<WatchEvent<T>, undefined> {
  /** The object `ref` as last seen; `undefined` when it is gone, was never seen, or its last state did not parse. */
  get(ref: ObjectRef): T | undefined;
  /** The objects of `namespace` (of every watched namespace when it is missing) as last seen, those that parse. */
  list(namespace?: string): T[];
  /** The resource version the watch resumes from: its last list's, change's or bookmark's; `""` before the first list. */
  readonly resourceVersion: string;
}

/**
 * The clients a typed watch needs: {@link createClients}' `kubeConfig` and `configuration`, so
 * its lists and watch requests share the keep-alive connections of every other call.
 *
 * @example
 * ```ts
 * const watchClients: WatchClients = createClients(loadKubeConfig());
 * ```
 */
export interface WatchClients {
  /** The `KubeConfig` (its current cluster is the server watched). */
  readonly kubeConfig: KubeConfig;
  /** The client-node configuration the lists are sent with; its default authentication also carries the watch requests. */
  readonly configuration: Configuration;
}

/** One kind, as a watch reads it. @internal */
export interface WatchedKind<T> {
  readonly kind: string;
  /** The API path watched, e.g. `/api/v1/namespaces/demo/pods`. */
  readonly path: string;
  /** The selectors the server applies (for pods, the cocoon label ANDed with the user's). */
  readonly labelSelector: string | undefined;
  /** Loads the kind's schema on the first list, so that `./k8s` loads zod only when a watch runs. */
  readonly schema: () => Promise<z.ZodType<T>>;
  /**
   * The schema's checks written out, for the hot path: the object as `T` when it passes them,
   * `undefined` when it does not (then the schema parses it, and says why).
   */
  readonly accept?: (raw: unknown) => T | undefined;
}

/**
 * Builds a typed watch of one kind.
 *
 * @internal
 */
export function resourceWatch<T>(clients: WatchClients | KubeRequester, kind: WatchedKind<T>, options: WatchOptions): CocoonWatch<T> {
  const store = new ObjectStore<T>();
  const state: WatchState = { resourceVersion: "" };
  const settings = checkedSettings(options, kind.kind);
  let iterated = false;
  return {
    get: (ref) => {
      const stored = store.get(ref.namespace, ref.name);
      return stored instanceof InvalidObject ? undefined : stored;
    },
    list: (namespace) => store.list(namespace),
    get resourceVersion() {
      return state.resourceVersion;
    },
    [Symbol.asyncIterator]() {
      if (iterated)
        throw new CocoonError("ERR_INVALID_ARGUMENT", `a ${kind.kind} watch is iterated once: start another watch for another consumer`);
      iterated = true;
      const queue = new EventQueue<WatchEvent<T>>();
      const stop = new AbortController();
      const halt = (): void => {
        stop.abort();
        queue.end();
      };
      const { signal } = options;
      if (signal?.aborted) halt();
      signal?.addEventListener("abort", halt, { once: true });
      // The schema is loaded only to explain a refusal of the fast check (or at once, for a kind without one).
      let schema: z.ZodType<T> | undefined;
      let loading: Promise<z.ZodType<T>> | undefined;
      const loadSchema = (): Promise<z.ZodType<T>> => (loading ??= kind.schema().then((loaded) => (schema = loaded)));
      const loaded = (): z.ZodType<T> => schema as z.ZodType<T>;
      const emit = (event: WatchEvent<T>): void => {
        if (event.type === "invalid" && schema === undefined) queue.push(loadSchema().then(() => event));
        else queue.push(event);
      };
      const run = async (): Promise<void> => {
        if (kind.accept === undefined) await loadSchema();
        const transport = await watchTransport(clients, kind, settings.maxListBytes);
        await runWatchLoop(
          {
            kind: kind.kind,
            ...transport,
            path: kind.path,
            query: {
              ...(kind.labelSelector === undefined ? {} : { labelSelector: kind.labelSelector }),
              ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
            },
            pageSize: settings.pageSize,
            timeoutSeconds: settings.timeoutSeconds,
            parse: (raw) =>
              kind.accept?.(raw) ??
              (schema === undefined ? new InvalidObject(raw, loaded, kind.kind) : parseWatched(schema, kind.kind, raw)),
            store,
            emit,
            maxEventBytes: settings.maxEventBytes,
            state,
          },
          stop.signal,
        );
      };
      if (!stop.signal.aborted) {
        run()
          .then(
            () => queue.end(),
            (err: unknown) => queue.fail(err),
          )
          .finally(() => signal?.removeEventListener("abort", halt));
      }
      return {
        next: () => queue.next(),
        return: () => {
          signal?.removeEventListener("abort", halt);
          halt();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

/** The lists and watch requests of `clients`: client-node's modules are loaded only for client-node clients. */
async function watchTransport<T>(
  clients: WatchClients | KubeRequester,
  kind: WatchedKind<T>,
  maxListBytes: number,
): Promise<WatchTransport> {
  if (isKubeRequester(clients)) return requesterWatch(clients, kind.path, kind.kind, maxListBytes);
  const [{ watchRequester, apiExceptionRefusal }, { configurationLister }] = await Promise.all([
    import("./watch-request.js"),
    import("./listers.js"),
  ]);
  return {
    list: configurationLister(clients.configuration, kind.path, { kind: kind.kind, maxListBytes, timeoutMs: LIST_TIMEOUT_MS }),
    send: watchRequester(clients.kubeConfig, clients.configuration),
    server: clients.kubeConfig.getCurrentCluster()?.server ?? "",
    refused: apiExceptionRefusal,
  };
}

interface WatchSettings {
  pageSize: number;
  timeoutSeconds: number;
  maxEventBytes: number;
  maxListBytes: number;
}

function checkedSettings(options: WatchOptions, kind: string): WatchSettings {
  const {
    pageSize = 0,
    timeoutSeconds = 300 + Math.floor(Math.random() * 301),
    maxEventBytes = DEFAULT_MAX_EVENT_BYTES,
    maxListBytes = DEFAULT_MAX_LIST_BYTES,
  } = options;
  if (!Number.isSafeInteger(pageSize) || pageSize < 0) throw invalid(`pageSize ${pageSize} is not a whole number of objects (0 or more)`);
  if (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 1)
    throw invalid(`timeoutSeconds ${timeoutSeconds} is not a whole number of seconds (1 or more)`);
  if (!Number.isSafeInteger(maxEventBytes) || maxEventBytes < 1024)
    throw invalid(`maxEventBytes ${maxEventBytes} is not a whole number of bytes (1024 or more)`);
  if (!Number.isSafeInteger(maxListBytes) || maxListBytes < 1024)
    throw invalid(`maxListBytes ${maxListBytes} is not a whole number of bytes (1024 or more)`);
  if (options.namespace === "") throw invalid("namespace is empty (leave it out to watch all namespaces)");
  // It goes into the watch and list paths: `..` would watch every namespace.
  if (options.namespace !== undefined) checkedNamespaceName(options.namespace, { helper: `watch ${kind}s`, field: "namespace" });
  return { pageSize, timeoutSeconds, maxEventBytes, maxListBytes };
}

const invalid = (message: string): CocoonError => new CocoonError("ERR_INVALID_ARGUMENT", `watch: ${message}`);

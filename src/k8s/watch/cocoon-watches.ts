import type { z } from "zod";
import type { CocoonHibernation } from "../../apis/v1/cocoonhibernation-types.js";
import type { CocoonSet } from "../../apis/v1/cocoonset-types.js";
import { GROUP, Kind, Plural, VERSION } from "../../apis/v1/groupversion-info.js";
import { Label } from "../../meta/index.js";
import { labelSelectorText } from "../resources/label-selector.js";
import type { KubeRequester } from "../request/kube-request.js";
import { resourceWatch, type CocoonWatch, type WatchClients } from "./resource-watch.js";
import type { WatchOptions } from "./watch-options.js";
import { acceptWatchedPod } from "./watched-pod-check.generated.js";
import type { WatchedPod } from "./watched-pod.js";

/**
 * Watches CocoonSets: lists them, then follows every change, each object parsed with
 * `CocoonSetSchema` (typed, the CRD's defaults applied).
 *
 * It sends its lists and watch requests itself, both on the authentication, middleware and
 * keep-alive connections of {@link createClients}, and reads each list page within
 * `maxListBytes` (past it: a `retrying` event, `ERR_ANSWER_TOO_LARGE`). Bookmarks are requested,
 * and the watch resumes from the last resource version it saw (a change's or a bookmark's)
 * whenever the server closes the watch or the connection drops; a 410 Gone (etcd compacted that
 * version, or the API server restarted and its watch cache began anew) is answered by a relist
 * that reports, once per object, what was missed: created, changed and deleted objects. A set that
 * does not parse is an `invalid` event, never an error: the watch goes on. A line that is not an
 * event, or one longer than `maxEventBytes`, is a `retrying` event (`ERR_WATCH_STREAM`) and a
 * relist; a request open past `timeoutSeconds` plus a tenth of it (at least 1 s) is dropped and
 * sent again. Waits follow client-go's reflector (800 ms doubling to 30 s, jittered), after
 * failures (each announced as a `retrying` event), 410s and watches closed within a second, so
 * the iteration ends only when it is stopped.
 *
 * @param clients - {@link createClients}' clients (their `kubeConfig` and `configuration`), or a `KubeRequester` (`./kubelet`: no client-node).
 * @param options - The namespace, selectors, a signal that stops the watch, page size, watch timeout, event and list caps.
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for an empty namespace, one that is not a
 * DNS-1123 label (`..` would watch every namespace), or a bad page size, timeout, `maxEventBytes` or `maxListBytes`.
 * @example
 * ```ts
 * const controller = new AbortController();
 * for await (const event of watchCocoonSets(clients, { namespace: "demo", signal: controller.signal })) {
 *   switch (event.type) {
 *     case "added":
 *     case "modified":
 *       console.log(event.object.metadata.name, event.object.spec?.suspend);
 *       break;
 *     case "deleted":
 *       console.log("gone", event.object.metadata.name);
 *       break;
 *     case "invalid":
 *       console.error(event.error.message); // => "CocoonSet demo/x from the API server does not parse: ..."
 *       break;
 *   }
 * }
 * ```
 */
export function watchCocoonSets(clients: WatchClients | KubeRequester, options: WatchOptions = {}): CocoonWatch<CocoonSet> {
  return customObjectWatch(
    clients,
    options,
    Kind.CocoonSet,
    Plural.CocoonSet,
    async () => (await import("../../apis/v1/cocoonset-types.js")).CocoonSetSchema,
  );
}

/**
 * Watches CocoonHibernations, each parsed with `CocoonHibernationSchema`; otherwise as {@link watchCocoonSets}.
 *
 * @example
 * ```ts
 * for await (const event of watchCocoonHibernations(clients, { namespace: "demo", signal })) {
 *   if (event.type === "added") console.log(event.object.spec?.podRef.name, event.object.spec?.desire);
 * }
 * ```
 */
export function watchCocoonHibernations(clients: WatchClients | KubeRequester, options: WatchOptions = {}): CocoonWatch<CocoonHibernation> {
  return customObjectWatch(
    clients,
    options,
    Kind.CocoonHibernation,
    Plural.CocoonHibernation,
    async () => (await import("../../apis/v1/cocoonhibernation-types.js")).CocoonHibernationSchema,
  );
}

/**
 * Watches cocoon pods: the pods labelled `cocoonset.cocoonstack.io/name` (every pod the operator
 * builds carries it; the server selects them, together with `options.labelSelector`), each
 * parsed as a {@link WatchedPod}. A labelled pod without the `virtual-kubelet.io/provider`
 * toleration does not parse, so it comes as an `invalid` event. Otherwise as {@link watchCocoonSets};
 * the lists are kept as the server's JSON.
 *
 * @example
 * ```ts
 * // The virtual kubelet: the pods bound to its node.
 * const pods = watchCocoonPods(clients, { fieldSelector: `spec.nodeName=${nodeName}`, signal });
 * for await (const event of pods) {
 *   if (event.type === "modified" && readHibernateState(event.object)) console.log("hibernate", event.object.metadata.name);
 *   if (event.type === "deleted") console.log("release", event.object.metadata.name);
 * }
 * ```
 */
export function watchCocoonPods(clients: WatchClients | KubeRequester, options: WatchOptions = {}): CocoonWatch<WatchedPod> {
  const { namespace } = options;
  return resourceWatch(
    clients,
    {
      kind: "Pod",
      path: namespace === undefined ? "/api/v1/pods" : `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
      labelSelector: [Label.CocoonSet, selectorText(options)].filter(Boolean).join(","),
      schema: async () => (await import("./watched-pod-schema.js")).WatchedPodSchema,
      accept: acceptWatchedPod,
    },
    options,
  );
}

/** A watch of one cocoon custom resource. */
function customObjectWatch<T>(
  clients: WatchClients | KubeRequester,
  options: WatchOptions,
  kind: string,
  plural: Plural,
  schema: () => Promise<z.ZodType<T>>,
): CocoonWatch<T> {
  const { namespace } = options;
  const scope = namespace === undefined ? "" : `/namespaces/${encodeURIComponent(namespace)}`;
  const path = `/apis/${GROUP}/${VERSION}${scope}/${plural}`;
  return resourceWatch(clients, { kind, path, labelSelector: selectorText(options), schema }, options);
}

function selectorText(options: WatchOptions): string | undefined {
  return options.labelSelector === undefined ? undefined : labelSelectorText(options.labelSelector);
}

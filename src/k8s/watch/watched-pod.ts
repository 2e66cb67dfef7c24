import type { z } from "zod";
import type { WatchedPodSchema } from "./watched-pod-schema.js";

/**
 * A pod delivered by {@link watchCocoonPods}: the JSON the API server sent (timestamps are strings,
 * unlike client-node's `V1Pod`), with `apiVersion` and `kind` always set (a list's items carry
 * neither) and the fields the cocoon contract reads checked: name, namespace, uid and
 * resourceVersion, labels and annotations as string maps, owner references, a toleration of
 * `virtual-kubelet.io/provider`, containers, and every status field `podStatusForVM` reads (phase,
 * pod IPs, start time, conditions, container states and their times). Every other field is there,
 * typed `unknown`. Every helper of this package takes it.
 *
 * @example
 * ```ts
 * for await (const event of watchCocoonPods(clients, { fieldSelector: `spec.nodeName=${nodeName}`, signal })) {
 *   if (event.type === "modified" && readHibernateState(event.object)) console.log("hibernate", event.object.metadata.name);
 * }
 * ```
 */
export type WatchedPod = z.output<typeof WatchedPodSchema>;

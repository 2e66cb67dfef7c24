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
export interface WatchedPod {
  [field: string]: unknown;
  apiVersion: "v1";
  kind: "Pod";
  metadata: {
    [field: string]: unknown;
    name: string;
    namespace: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp?: string | undefined;
    deletionTimestamp?: string | undefined;
    labels?: Record<string, string> | undefined;
    annotations?: Record<string, string> | undefined;
    ownerReferences?:
      | { [field: string]: unknown; apiVersion: string; kind: string; name: string; uid: string; controller?: boolean | undefined }[]
      | undefined;
    finalizers?: string[] | undefined;
  };
  spec: {
    [field: string]: unknown;
    nodeName?: string | undefined;
    nodeSelector?: Record<string, string> | undefined;
    tolerations?:
      | {
          [field: string]: unknown;
          key?: string | undefined;
          operator?: string | undefined;
          value?: string | undefined;
          effect?: string | undefined;
        }[]
      | undefined;
    containers: { [field: string]: unknown; name: string; image?: string | undefined }[];
  };
  status?:
    | {
        [field: string]: unknown;
        phase?: string | undefined;
        podIP?: string | undefined;
        podIPs?: { [field: string]: unknown; ip?: string | undefined }[] | undefined;
        startTime?: string | null | undefined;
        conditions?:
          | {
              [field: string]: unknown;
              type: string;
              status: string;
              reason?: string | undefined;
              message?: string | undefined;
              observedGeneration?: number | undefined;
              lastProbeTime?: string | null | undefined;
              lastTransitionTime?: string | null | undefined;
            }[]
          | undefined;
        containerStatuses?:
          | {
              [field: string]: unknown;
              name: string;
              ready?: boolean | undefined;
              state?:
                | {
                    [field: string]: unknown;
                    running?: { [field: string]: unknown; startedAt?: string | null | undefined } | undefined;
                    terminated?:
                      | { [field: string]: unknown; startedAt?: string | null | undefined; finishedAt?: string | null | undefined }
                      | undefined;
                  }
                | undefined;
            }[]
          | undefined;
      }
    | undefined;
}

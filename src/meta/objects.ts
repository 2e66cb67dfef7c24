// Not derived from a schema, unlike the CocoonSet *Like types: these are the readers' parameter, not a
// wire shape. A live pod's one definition is WatchedPodSchema (./k8s, which ./meta sits below) and the
// built pod's is BuiltPodSchema; PodLike is the few fields the readers read, all optional, so both of
// those, client-node's V1Pod (Date timestamps) and plain JSON fit, and it names no field WatchedPodSchema
// lacks (test/pod-like.test-d.ts pins both).

/** The owner-reference fields the helpers read (client-node's `V1OwnerReference` fits). */
export interface OwnerReferenceLike {
  kind?: string | undefined;
  name?: string | undefined;
}

/** The toleration fields the helpers read (client-node's `V1Toleration` fits). */
export interface TolerationLike {
  key?: string | undefined;
}

/**
 * The pod fields the helpers read: client-node's `V1Pod`, a kubernetes-models `IPod` or plain JSON fit.
 * Kept structural so `./meta` needs no Kubernetes client.
 */
export interface PodLike {
  metadata?:
    | {
        name?: string | undefined;
        namespace?: string | undefined;
        labels?: Record<string, string> | undefined;
        annotations?: Record<string, string> | undefined;
        ownerReferences?: readonly OwnerReferenceLike[] | undefined;
      }
    | undefined;
  spec?:
    | {
        nodeName?: string | undefined;
        nodeSelector?: Record<string, string> | undefined;
        tolerations?: readonly TolerationLike[] | undefined;
      }
    | undefined;
  status?:
    | {
        phase?: string | undefined;
        conditions?: readonly { type?: string | undefined; status?: string | undefined }[] | undefined;
        containerStatuses?: readonly { state?: { running?: unknown } | undefined }[] | undefined;
      }
    | undefined;
}

/**
 * A time as the builders read it: client-node's `Date`, or the API server's RFC 3339 text.
 *
 * @example
 * ```ts
 * const times: KubeTime[] = [new Date(), "2026-08-12T10:00:00Z"];
 * ```
 */
export type KubeTime = Date | string;

/**
 * A pod condition as {@link podStatusForVM} reads it (client-node's `V1PodCondition` fits).
 *
 * @example
 * ```ts
 * const scheduled: PodConditionSource = { type: "PodScheduled", status: "True", lastTransitionTime: new Date() };
 * ```
 */
export interface PodConditionSource {
  type?: string | undefined;
  status?: string | undefined;
  reason?: string | undefined;
  message?: string | undefined;
  observedGeneration?: number | undefined;
  lastProbeTime?: KubeTime | null | undefined;
  lastTransitionTime?: KubeTime | null | undefined;
}

/**
 * The pod fields {@link podStatusForVM} reads: client-node's `V1Pod` fits, and so does plain JSON.
 *
 * @example
 * ```ts
 * const source: PodStatusSource = await clients.core.readNamespacedPod({ name: "demo-0", namespace: "prod" });
 * ```
 */
export interface PodStatusSource {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
  spec?: { containers?: readonly { name?: string | undefined }[] | undefined } | undefined;
  status?:
    | {
        podIP?: string | undefined;
        podIPs?: readonly { ip?: string | undefined }[] | undefined;
        startTime?: KubeTime | null | undefined;
        conditions?: readonly PodConditionSource[] | undefined;
        containerStatuses?:
          | readonly {
              name?: string | undefined;
              state?:
                | {
                    running?: { startedAt?: KubeTime | null | undefined } | undefined;
                    terminated?: { startedAt?: KubeTime | null | undefined; finishedAt?: KubeTime | null | undefined } | undefined;
                  }
                | undefined;
            }[]
          | undefined;
      }
    | undefined;
}

/**
 * A pod condition as {@link podStatusForVM} writes it, times in the API server's text.
 *
 * @example
 * ```ts
 * const ready: KubeletPodCondition = { type: "Ready", status: "True", lastTransitionTime: "2026-08-12T10:00:00Z" };
 * ```
 */
export interface KubeletPodCondition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/**
 * The VM's container status as {@link podStatusForVM} writes it: running, or terminated once the
 * VM is deleted.
 *
 * @example
 * ```ts
 * const agent: KubeletContainerStatus = { name: "agent", state: { running: { startedAt: "2026-08-12T10:00:00Z" } }, ready: true };
 * ```
 */
export interface KubeletContainerStatus {
  name: string;
  state: { running: { startedAt: string } } | { terminated: { exitCode: 0; reason: "Completed"; startedAt?: string; finishedAt: string } };
  ready: boolean;
}

/**
 * The pod status of one VM state, as {@link podStatusForVM} builds it: the fields it owns, each
 * absent field meaning "none" (`writePodStatus` in `./k8s` removes it from the server's copy).
 *
 * @example
 * ```ts
 * const pending: KubeletPodStatus = { phase: "Pending", conditions: [{ type: "Ready", status: "False", lastTransitionTime: "2026-08-12T10:00:00Z" }] };
 * ```
 */
export interface KubeletPodStatus {
  phase: "Running" | "Pending" | "Succeeded";
  conditions: KubeletPodCondition[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  containerStatuses?: KubeletContainerStatus[];
}

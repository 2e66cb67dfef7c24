import { kubeTimeText } from "../../internal/kube-time.js";
import { LifecycleState, readLifecycleState } from "../lifecycle.js";
import { AGENT_CONTAINER_NAME } from "../pods/managed-pod.js";
import type {
  KubeletContainerStatus,
  KubeletPodCondition,
  KubeletPodStatus,
  PodConditionSource,
  PodStatusSource,
} from "./pod-status-types.js";

/**
 * The states of a pod's VM that the virtual kubelet reports, each with its pod phase: `running` (the VM
 * exists) is `Running`, `absent` (not created yet, or hibernated: its memory is in the registry) is
 * `Pending`, `deleted` (removed because the pod is being deleted) is `Succeeded`.
 *
 * @example
 * ```ts
 * const vm: VMObservation = vmIP ? { state: VMState.Running, ip: vmIP, probeReady: true } : { state: VMState.Absent };
 * ```
 */
export const VMState = { Running: "running", Absent: "absent", Deleted: "deleted" } as const;
/** One of the {@link VMState} values. */
export type VMState = (typeof VMState)[keyof typeof VMState];

/**
 * What the virtual kubelet knows of a pod's VM: the input of {@link podStatusForVM}.
 *
 * @example
 * ```ts
 * const running: VMObservation = { state: VMState.Running, ip: "10.88.0.7", probeReady: true };
 * const hibernated: VMObservation = { state: VMState.Absent };
 * ```
 */
export type VMObservation =
  | {
      readonly state: typeof VMState.Running;
      /** The guest's IP; `""` or missing while the lease is unknown. */
      readonly ip?: string | undefined;
      /** The guest answers its readiness probe. */
      readonly probeReady: boolean;
    }
  | { readonly state: typeof VMState.Absent }
  | { readonly state: typeof VMState.Deleted };

/**
 * Options of {@link podStatusForVM}.
 *
 * @example
 * ```ts
 * const options: PodStatusOptions = { now: new Date(), publishingReady: true };
 * ```
 */
export interface PodStatusOptions {
  /** The time of every transition this status records. */
  readonly now: Date;
  /**
   * The status is written before the lifecycle annotation turns `Ready` (vk-cocoon's final ready
   * publication): a ready probe counts even though the pod does not read `Ready` yet.
   */
  readonly publishingReady?: boolean | undefined;
}

const READY = "Ready";
const CONTAINERS_READY = "ContainersReady";
const INITIALIZED = "Initialized";
const COMPLETED = "PodCompleted";

/**
 * Returns the pod status that `vm` maps to, as vk-cocoon reports it (`provider/cocoon/status.go`,
 * `delete.go`), to be written through the pods/status subresource.
 *
 * - `running`: phase `Running`, the VM's IP as `podIP` and `podIPs`, `startTime` (kept, or now),
 *   conditions `Ready` and `ContainersReady` (`True` when the probe is ready and the pod's lifecycle
 *   state reads `Ready`, as vk-cocoon gates it; see `publishingReady`) and `Initialized` `True`,
 *   and the container running.
 * - `absent`: phase `Pending`, no IP, no container status, `Ready` and `ContainersReady` `False`.
 * - `deleted`: phase `Succeeded`, `Ready` and `ContainersReady` `False` (reason `PodCompleted`), the
 *   container terminated with exit code 0.
 *
 * Times move only on a change: a condition keeps its `lastTransitionTime` while its status holds,
 * the container its `startedAt` while it runs; everything new is stamped `now` (second precision).
 * Conditions of other types (`PodScheduled`, readiness gates) are kept. The container is the pod's
 * first (`agent` for the operator's pods). Pure: `pod` is read, never changed.
 *
 * @example
 * ```ts
 * const status = podStatusForVM(pod, { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, { now: new Date() });
 * status.phase; // => "Running"
 * podStatusForVM(pod, { state: VMState.Absent }, { now: new Date() }).phase; // => "Pending"
 * ```
 */
export function podStatusForVM(pod: PodStatusSource, vm: VMObservation, options: PodStatusOptions): KubeletPodStatus {
  const now = kubeTimeText(options.now) ?? "";
  const current = pod.status ?? {};
  const conditions = current.conditions ?? [];
  const name = pod.spec?.containers?.[0]?.name || AGENT_CONTAINER_NAME;
  const previous = current.containerStatuses?.find((s) => s.name === name)?.state;
  const startTime = kubeTimeText(current.startTime);
  if (vm.state === VMState.Running) {
    const ready = vm.probeReady && (options.publishingReady === true || readLifecycleState(pod) === LifecycleState.Ready);
    const status = ready ? "True" : "False";
    const container: KubeletContainerStatus = {
      name,
      state: { running: { startedAt: kubeTimeText(previous?.running?.startedAt) ?? now } },
      ready,
    };
    return {
      phase: "Running",
      conditions: merged(conditions, [
        condition(conditions, READY, status, now),
        condition(conditions, CONTAINERS_READY, status, now),
        condition(conditions, INITIALIZED, "True", now),
      ]),
      ...(vm.ip ? { podIP: vm.ip, podIPs: [{ ip: vm.ip }] } : {}),
      startTime: startTime ?? now,
      containerStatuses: [container],
    };
  }
  if (vm.state === VMState.Absent) {
    return {
      phase: "Pending",
      conditions: merged(conditions, [condition(conditions, READY, "False", now), condition(conditions, CONTAINERS_READY, "False", now)]),
      ...(startTime === undefined ? {} : { startTime }),
    };
  }
  const startedAt = kubeTimeText(previous?.running?.startedAt ?? previous?.terminated?.startedAt);
  const terminated = {
    exitCode: 0 as const,
    reason: "Completed" as const,
    ...(startedAt === undefined ? {} : { startedAt }),
    finishedAt: kubeTimeText(previous?.terminated?.finishedAt) ?? now,
  };
  const ips = (current.podIPs ?? []).flatMap(({ ip }) => (ip ? [{ ip }] : []));
  return {
    phase: "Succeeded",
    conditions: merged(conditions, [
      condition(conditions, READY, "False", now, COMPLETED),
      condition(conditions, CONTAINERS_READY, "False", now, COMPLETED),
    ]),
    ...(current.podIP ? { podIP: current.podIP } : {}),
    ...(ips.length > 0 ? { podIPs: ips } : {}),
    ...(startTime === undefined ? {} : { startTime }),
    containerStatuses: [{ name, state: { terminated }, ready: false }],
  };
}

/** A condition of ours; its transition time is kept while the status it had holds. */
function condition(
  current: readonly PodConditionSource[],
  type: string,
  status: string,
  now: string,
  reason?: string,
): KubeletPodCondition {
  const before = current.find((c) => c.type === type);
  const lastTransitionTime = before?.status === status ? (kubeTimeText(before.lastTransitionTime) ?? now) : now;
  return { type, status, lastTransitionTime, ...(reason === undefined ? {} : { reason }) };
}

/** The current conditions in their order, ours in place of the same type, then ours that are new. */
function merged(current: readonly PodConditionSource[], ours: KubeletPodCondition[]): KubeletPodCondition[] {
  const kept = current.flatMap((c): KubeletPodCondition[] => {
    const mine = ours.find((o) => o.type === c.type);
    return mine !== undefined ? [mine] : c.type ? [copied(c)] : [];
  });
  return [...kept, ...ours.filter((o) => !current.some((c) => c.type === o.type))];
}

/** A condition of another writer, as it is, its times as the API server writes them. */
function copied(c: PodConditionSource): KubeletPodCondition {
  const lastProbeTime = kubeTimeText(c.lastProbeTime);
  const lastTransitionTime = kubeTimeText(c.lastTransitionTime);
  return {
    type: c.type ?? "",
    status: c.status ?? "",
    ...(c.observedGeneration === undefined ? {} : { observedGeneration: c.observedGeneration }),
    ...(lastProbeTime === undefined ? {} : { lastProbeTime }),
    ...(lastTransitionTime === undefined ? {} : { lastTransitionTime }),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}

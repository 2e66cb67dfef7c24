import type { CoreV1Api } from "@kubernetes/client-node";
import {
  Annotation,
  podStatusForVM,
  readCocoonSetGeneration,
  type LifecycleState,
  type PodStatusSource,
  type VMObservation,
  type VMRuntime,
} from "../../meta/index.js";
import type { Patched } from "../patch/patched.js";
import type { KubeRequester } from "../request/kube-request.js";
import { resolvePodTarget } from "../patch/target.js";
import { patchClearVMRuntime } from "./clear-vm-runtime.js";
import { patchLifecycleStatus } from "./lifecycle-status.js";
import { patchVMRuntime } from "./vm-runtime.js";
import { writePodStatus, type StatusPod } from "./write-pod-status.js";

/**
 * The client {@link reportVM} needs: client-node's `CoreV1Api` as `core` ({@link CocoonClients} fits).
 *
 * @example
 * ```ts
 * const reporter: ReportVMClients = { core: kubeConfig.makeApiClient(CoreV1Api) };
 * ```
 */
export interface ReportVMClients {
  /** Client-node's `CoreV1Api` (or anything with these methods). */
  readonly core: Pick<CoreV1Api, "patchNamespacedPod" | "patchNamespacedPodStatus">;
}

/**
 * What {@link reportVM} reports: the lifecycle state, the VM as the virtual kubelet sees it, and optionally
 * its runtime annotations.
 *
 * @example
 * ```ts
 * const report: VMReport = { state: LifecycleState.Ready, vm: { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, runtime };
 * ```
 */
export interface VMReport {
  /** The lifecycle state, reported at the generation stamped on the pod (`readCocoonSetGeneration`). */
  readonly state: LifecycleState;
  /** The VM, for the pod status (`podStatusForVM`). */
  readonly vm: VMObservation;
  /** The runtime to write (`patchVMRuntime`), `null` to clear it (`patchClearVMRuntime`); left alone when absent. */
  readonly runtime?: Partial<VMRuntime> | null | undefined;
  /** The lifecycle message (a `failed` state's reason); `""` or absent deletes it. */
  readonly message?: string | undefined;
}

/**
 * Options of {@link reportVM}.
 *
 * @example
 * ```ts
 * await reportVM(clients, pod, { state: LifecycleState.Hibernated, vm: { state: VMState.Absent } }, { signal: AbortSignal.timeout(10_000) });
 * ```
 */
export interface ReportVMOptions {
  /** The time of the pod status' transitions; now by default. */
  readonly now?: Date | undefined;
  /** Aborts the request under way; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * What {@link reportVM} did: the pod as stored after it, and the requests it sent, in order.
 *
 * @example
 * ```ts
 * const { pod: written, sent } = await reportVM(clients, pod, { state: LifecycleState.Ready, vm: { state: VMState.Running, ip: vmIP, probeReady: true } });
 * log.info(sent.length === 0 ? "unchanged" : `sent ${sent.join(", ")}`); // "sent status, lifecycle"
 * ```
 */
export interface VMReported<T extends ReportPod> {
  /** The server's copy after the last request, or the pod given when nothing was sent. */
  readonly pod: Patched<T>;
  /** The parts written, in the order sent: `runtime`, `status`, `lifecycle`; empty when nothing changed. */
  readonly sent: readonly ("runtime" | "status" | "lifecycle")[];
}

/**
 * A pod as {@link reportVM} reads it: client-node's `V1Pod`, a watched pod and plain JSON all fit.
 *
 * @example
 * ```ts
 * const live: ReportPod = await clients.core.readNamespacedPod({ name: "demo-0", namespace: "prod" });
 * ```
 */
export type ReportPod = StatusPod & PodStatusSource;

/**
 * Reports a VM on its pod in the one order that never shows the operator a lifecycle state the pod
 * does not show yet: the runtime annotations first (when given), then the pod status, then the
 * lifecycle status. Each part is one request, or none when the pod already holds it, so a report
 * of an unchanged VM sends nothing.
 *
 * Why this order: the operator takes the lifecycle annotation as the virtual kubelet's word that a step is
 * done (cocoon-operator gates a hibernation on `hibernated` at the set's generation and then reads
 * the pod, `cocoonset/suspend.go` and `hibernation/hibernate.go`; it counts a main pod running by
 * its `Ready` condition, `cocoonset/status.go`). Written last, it lands on a pod whose phase,
 * conditions and IP already match it, as vk-cocoon's `markReadyPublished` does for `ready`
 * ("status must persist before the annotation is exposed"). Written first, a watcher can read
 * `hibernated` on a pod still `Running`.
 *
 * The pod status is `podStatusForVM` of the pod as it will be once the lifecycle lands, so a
 * `ready` report turns the `Ready` condition `True` in the same write (vk-cocoon's ready gate).
 * The lifecycle carries the generation stamped on the pod, and `message`. A failed request
 * rejects and sends nothing after it: the next report repeats what is missing.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an object that is not a
 * Pod or lacks a valid name or namespace; then what {@link patchVMRuntime},
 * {@link patchClearVMRuntime}, {@link writePodStatus} and {@link patchLifecycleStatus} throw.
 * @example
 * ```ts
 * const vm = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
 * const { pod: written, sent } = await reportVM(clients, pod, { state: LifecycleState.Ready, vm, runtime: { vmID: "vm-1", ip: "10.88.0.7" } });
 * // sent => ["runtime", "status", "lifecycle"]; the same report again sends nothing
 * await reportVM(clients, written, { state: LifecycleState.Hibernated, vm: { state: VMState.Absent }, runtime: null });
 * ```
 */
export async function reportVM<T extends ReportPod>(
  clients: ReportVMClients | KubeRequester,
  pod: T,
  report: VMReport,
  options: ReportVMOptions = {},
): Promise<VMReported<T>> {
  resolvePodTarget(pod, "reportVM");
  const { signal } = options;
  const sent: ("runtime" | "status" | "lifecycle")[] = [];
  let current: ReportPod = pod;
  const step = async (part: (typeof sent)[number], write: Promise<ReportPod>) => {
    const written = await write;
    if (written !== current) sent.push(part);
    current = written;
  };
  if (report.runtime === null) await step("runtime", patchClearVMRuntime(clients, current, { signal }));
  else if (report.runtime !== undefined) await step("runtime", patchVMRuntime(clients, current, report.runtime, { signal }));
  const lifecycle = { state: report.state, observedGeneration: readCocoonSetGeneration(current), message: report.message ?? "" };
  const status = podStatusForVM(withState(current, report.state), report.vm, { now: options.now ?? new Date() });
  await step("status", writePodStatus(clients, current, status, { signal }));
  await step("lifecycle", patchLifecycleStatus(clients, current, lifecycle, { signal }));
  return { pod: current as Patched<T>, sent };
}

/** The pod as it reads once `state` is reported: a shallow copy, never the pod itself. */
function withState(pod: ReportPod, state: LifecycleState): PodStatusSource {
  const metadata = pod.metadata ?? {};
  return { ...pod, metadata: { ...metadata, annotations: { ...metadata.annotations, [Annotation.LifecycleState]: state } } };
}

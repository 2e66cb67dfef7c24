import type { CoreV1Api } from "@kubernetes/client-node";
import type { KubeRequester } from "../request/kube-request.js";
import { MERGE_PATCH } from "../patch/content-types.js";
import { marshalGoJSON } from "../../internal/go/index.js";
import type { KubeletPodStatus } from "../../meta/index.js";
import { sendPatch } from "../patch/send-patch.js";
import { unsent, type Patched } from "../patch/patched.js";
import { resolvePodTarget, type KubeObject } from "../patch/target.js";
import { sameOnWire } from "./same-on-wire.js";

/**
 * The client {@link writePodStatus} needs: client-node's `CoreV1Api` as `core` ({@link CocoonClients} fits).
 *
 * @example
 * ```ts
 * const writer: PodStatusClients = { core: kubeConfig.makeApiClient(CoreV1Api) };
 * ```
 */
export interface PodStatusClients {
  /** Client-node's `CoreV1Api` (or anything with this method). */
  readonly core: Pick<CoreV1Api, "patchNamespacedPodStatus">;
}

/**
 * Options of {@link writePodStatus}.
 *
 * @example
 * ```ts
 * const status = podStatusForVM(pod, { state: VMState.Absent }, { now: new Date() });
 * await writePodStatus(clients, pod, status, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface WritePodStatusOptions {
  /** Aborts the request; the call then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * A pod as {@link writePodStatus} reads it: the object metadata, and the status fields it compares.
 *
 * @example
 * ```ts
 * const live: StatusPod = await clients.core.readNamespacedPod({ name: "demo-0", namespace: "prod" });
 * ```
 */
export interface StatusPod extends KubeObject {
  /** The pod's current status (client-node's `V1PodStatus` fits). */
  status?: object | undefined;
}

/** The status fields an {@link KubeletPodStatus} owns, in Go's `corev1.PodStatus` order. */
const FIELDS = ["phase", "conditions", "podIP", "podIPs", "startTime", "containerStatuses"] as const;

/**
 * Writes a VM's pod status (built by `podStatusForVM` in `./meta`) through the pods/status
 * subresource: one JSON merge patch of exactly the fields that differ from `pod.status`, or no
 * request when none does. A field the status leaves out is removed (`null`), so a hibernated pod
 * loses its IP and container status; lists are sent whole; fields it does not own (`hostIP`,
 * `qosClass`, …) are left alone. Times compare at the server's second precision and a zero value
 * equals an absent one, so a status read back from the server sends nothing.
 *
 * Resolves to the server's copy (a client-node `V1Pod`, its timestamps `Date`s: {@link Patched}), or
 * to `pod` when nothing was sent. No `resourceVersion`
 * precondition: the virtual kubelet is the one writer of these fields.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for an object that is not a
 * Pod or lacks a valid name or namespace; {@link UnexpectedObjectError} `ERR_UNEXPECTED_OBJECT` when
 * the answer is not this pod (another name, namespace, kind or uid, or not an object); client-node's
 * `ApiException` for a refused request; the signal's reason when aborted.
 * @example
 * ```ts
 * const status = podStatusForVM(pod, { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, { now: new Date() });
 * pod = await writePodStatus(clients, pod, status);
 * ```
 */
export async function writePodStatus<T extends StatusPod>(
  clients: PodStatusClients | KubeRequester,
  pod: T,
  status: KubeletPodStatus,
  options: WritePodStatusOptions = {},
): Promise<Patched<T>> {
  const target = resolvePodTarget(pod, "writePodStatus");
  const current = (pod.status ?? {}) as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (!sameOnWire(current[field], status[field])) changes[field] = status[field] ?? null;
  }
  if (Object.keys(changes).length === 0) return unsent(pod);
  options.signal?.throwIfAborted();
  const body = marshalGoJSON({ status: changes });
  return (await sendPatch(clients, target, {
    body,
    contentType: MERGE_PATCH,
    status: true,
    signal: options.signal,
  })) as Patched<T>;
}

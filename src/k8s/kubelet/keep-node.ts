import type { CoordinationV1Api, CoreV1Api, V1Node } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { buildVirtualNode, nodeResources, type NodeResourcesInput, type VirtualNodeOptions } from "../../meta/index.js";
import type { Logger } from "../logger.js";
import { checkedObjectName } from "../path-name.js";
import type { KubeObject } from "../patch/target.js";
import { isKubeRequester, type KubeRequester } from "../request/kube-request.js";
import { startKeeper, type KeeperSettings } from "./node-keeper.js";
import { requesterNodeWrites, type NodeWrites } from "./node-writes.js";

/**
 * The heartbeat schedule {@link keepNode} keeps by default: virtual-kubelet's (`node.DefaultLeaseDuration`,
 * `DefaultRenewIntervalFraction`, `DefaultStatusUpdateInterval`), which vk-cocoon runs. A Lease of 40 s
 * renewed every 10 s, the status re-sent every minute.
 *
 * @example
 * ```ts
 * NODE_HEARTBEAT.leaseRenewMs; // => 10000
 * const node = { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal };
 * await keepNode(clients, { ...node, leaseRenewMs: 2 * NODE_HEARTBEAT.leaseRenewMs }); // half the Lease PUTs
 * ```
 */
export const NODE_HEARTBEAT = Object.freeze({
  leaseDurationSeconds: 40,
  leaseRenewMs: 10_000,
  statusReportMs: 60_000,
  requestTimeoutMs: 10_000,
} as const);

/**
 * The clients {@link keepNode} needs ({@link CocoonClients} fits).
 *
 * @example
 * ```ts
 * const keeperClients: KeepNodeClients = {
 *   core: kubeConfig.makeApiClient(CoreV1Api),
 *   coordination: kubeConfig.makeApiClient(CoordinationV1Api),
 * };
 * ```
 */
export interface KeepNodeClients {
  /** Client-node's `CoreV1Api`: the Node and its `status`. */
  readonly core: Pick<CoreV1Api, "createNode" | "readNode" | "replaceNode" | "patchNodeStatus">;
  /** Client-node's `CoordinationV1Api`: the node's Lease in `kube-node-lease`. */
  readonly coordination: Pick<CoordinationV1Api, "readNamespacedLease" | "createNamespacedLease" | "replaceNamespacedLease">;
}

/**
 * Options of {@link keepNode}: the node as {@link buildVirtualNode} builds it, and the heartbeat schedule.
 *
 * @example
 * ```ts
 * const options: KeepNodeOptions = { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal, logger: console };
 * ```
 */
export interface KeepNodeOptions extends Omit<VirtualNodeOptions, "now"> {
  /** Stops the keeper: the timers end and the node is reported not ready (see {@link keepNode}). */
  readonly signal: AbortSignal;
  /** The Lease's `leaseDurationSeconds`; default 40. The node lifecycle controller's grace period should exceed it. */
  readonly leaseDurationSeconds?: number | undefined;
  /** How often the Lease is renewed; default 10 s (a quarter of the duration, as the kubelet). */
  readonly leaseRenewMs?: number | undefined;
  /** How often the status is re-sent (fresh heartbeat times) when nothing changed; default 60 s. */
  readonly statusReportMs?: number | undefined;
  /** Deadline of each request; default 10 s. */
  readonly requestTimeoutMs?: number | undefined;
  /** Where a failed renewal or status write is reported; it is retried on the next tick. */
  readonly logger?: Logger | undefined;
}

/**
 * The running keeper {@link keepNode} resolves to, `node` typed as `N`: client-node's `V1Node` for
 * client-node's clients (`./k8s`), the server's JSON (a {@link KubeObject}, timestamps as strings)
 * for a {@link KubeRequester} (`./kubelet`).
 *
 * @typeParam N - The Node's type; {@link KubeObject} when not given.
 * @example
 * ```ts
 * const kept: KeptNode = await keepNode(clients, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal });
 * await kept.update({ ...measured, snapshotCache: { allocatableBytes: 2 ** 40 } }); // the cache planner's new plan
 * ```
 */
export interface KeptNode<N extends KubeObject = KubeObject> {
  /** The server's copy of the node after the keeper's last write. */
  readonly node: N;
  /**
   * Re-reports capacity and allocatable (`nodeResources(resources)`): one status write when they
   * changed, none when they did not.
   *
   * @returns `true` when they changed and were written, `false` when nothing was sent.
   * @throws {@link CocoonError} as {@link nodeResources} does, before any request; the API server's
   * error (the keeper retries on its next tick anyway); the signal's reason once stopped.
   */
  update(resources: NodeResourcesInput): Promise<boolean>;
  /** Resolves once the keeper has stopped and marked the node not ready; never rejects. */
  readonly stopped: Promise<void>;
}

function interval(value: number | undefined, fallback: number, field: string, max = 2 ** 31 - 1): number {
  const ms = value ?? fallback;
  if (!Number.isFinite(ms) || ms <= 0 || ms > max) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `keepNode: ${field} must be a positive number up to ${String(max)}, got ${String(ms)}`);
  }
  return ms;
}

/** Every option of the schedule, checked, defaults applied. @internal */
export function keeperSettings(options: Omit<KeepNodeOptions, keyof VirtualNodeOptions>, notReadyOnStop = true): KeeperSettings {
  const leaseDurationSeconds = interval(options.leaseDurationSeconds, NODE_HEARTBEAT.leaseDurationSeconds, "leaseDurationSeconds", 3600);
  if (!Number.isInteger(leaseDurationSeconds)) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `keepNode: leaseDurationSeconds must be an integer, got ${String(leaseDurationSeconds)}`);
  }
  const leaseRenewMs = interval(options.leaseRenewMs, (leaseDurationSeconds * 1000) / 4, "leaseRenewMs", leaseDurationSeconds * 1000 - 1);
  return {
    signal: options.signal,
    leaseDurationSeconds,
    leaseRenewMs,
    statusReportMs: interval(options.statusReportMs, NODE_HEARTBEAT.statusReportMs, "statusReportMs"),
    requestTimeoutMs: interval(options.requestTimeoutMs, NODE_HEARTBEAT.requestTimeoutMs, "requestTimeoutMs"),
    logger: options.logger,
    notReadyOnStop,
  };
}

/**
 * Keeps the virtual kubelet's node as virtual-kubelet does, until `signal` aborts.
 *
 * `clients` is client-node's API clients ({@link CocoonClients} fits) or a {@link KubeRequester}
 * (`./kubelet`'s path, which never loads client-node); both send the same requests, in the same order.
 *
 * Creates the Node {@link buildVirtualNode} builds, or adopts the one of that name already there
 * (its labels and the provider taint merged in; taints, labels and conditions others put there
 * stay), and writes its status through the `status` subresource. Then, on virtual-kubelet's
 * schedule ({@link NODE_HEARTBEAT}): renews the `coordination.k8s.io/v1` Lease named after the node
 * in `kube-node-lease` every `leaseRenewMs` (one PUT; it is owned by the Node, so the garbage
 * collector removes it with the node), and re-sends the status with fresh heartbeat times every
 * `statusReportMs`, or at once when {@link KeptNode.update} changes the resources. It never writes
 * the `node.kubernetes.io/not-ready` taint: the node lifecycle controller lifts it once the node is
 * Ready and its Lease fresh.
 *
 * Every request has a deadline (`requestTimeoutMs`). A failure after the start never throws: it is
 * reported to `logger` and retried on the next tick; a node deleted meanwhile is created again.
 *
 * On abort the timers stop and the keeper writes `Ready=False` (reason `KubeletNotReady`), so the
 * controller taints the node `node.kubernetes.io/not-ready:NoSchedule` (and `:NoExecute`) at its next
 * pass instead of after the grace period; the Lease is left to expire, and then the controller marks
 * the conditions Unknown and the taint becomes `node.kubernetes.io/unreachable`.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT`, before any request, for a name that cannot be a
 * Node's, an interval out of range or what {@link buildVirtualNode} refuses; the signal's reason when
 * already aborted; the API server's error when the first create (or adoption) or status write fails.
 * @example
 * ```ts
 * const kept = await keepNode(clients, { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, signal, logger: console });
 * kept.node.metadata?.uid; // the Node as stored
 * await kept.update({ ...measured, snapshotCache: { allocatableBytes: 2 ** 40 } }); // => true: written once
 * await kept.stopped; // after signal aborts: Ready=False written
 * ```
 */
export async function keepNode(clients: KeepNodeClients | KubeRequester, options: KeepNodeOptions): Promise<KeptNode<V1Node>> {
  checkedObjectName(options.name, "Node", { helper: "keepNode", field: "name" });
  const settings = keeperSettings(options);
  const body = buildVirtualNode({ ...options, now: new Date() });
  const writes: NodeWrites = isKubeRequester(clients)
    ? requesterNodeWrites(clients)
    : (await import("./client-node-writes.js")).clientNodeWrites(clients);
  const keeper = await startKeeper(writes, body, settings);
  const { status } = body;
  return {
    get node() {
      return keeper.node;
    },
    update: (resources) => keeper.setStatus({ ...status, ...nodeResources(resources) }),
    stopped: keeper.stopped,
  };
}

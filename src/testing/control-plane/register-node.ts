import { CoordinationV1Api, CoreV1Api, type KubeConfig, type V1Node, type V1NodeStatus, type V1Taint } from "@kubernetes/client-node";
import { CocoonError } from "../../errors.js";
import { keeperSettings } from "../../k8s/kubelet/keep-node.js";
import { clientNodeWrites } from "../../k8s/kubelet/client-node-writes.js";
import { startKeeper } from "../../k8s/kubelet/node-keeper.js";
import { checkedObjectName } from "../../k8s/path-name.js";
import { NODE_ROLE_LABEL, PROVIDER_TAINT } from "../../meta/kubelet/node.js";
import { DEFAULT_NODE_POOL, HOSTNAME_LABEL, Label } from "../../meta/keys.js";

/**
 * Options of {@link registerNode}: a cocoon node as vk-cocoon registers it, with what a test changes.
 *
 * @example
 * ```ts
 * const options: RegisterNodeOptions = { name: "cocoon-2", pool: "gpu", capacity: { cpu: "2" }, unschedulable: true };
 * await registerNode(plane, options);
 * ```
 */
export interface RegisterNodeOptions {
  /** The node's name, also its `kubernetes.io/hostname` label (what hostname affinities match). */
  name: string;
  /** Its `cocoonstack.io/pool` label; default `default`, the pool a set without `spec.nodePool` selects. */
  pool?: string;
  /** Labels set on top of the defaults (a key given here wins). */
  labels?: Readonly<Record<string, string>>;
  /** The taints; default `virtual-kubelet.io/provider=cocoon:NoSchedule`, which the operator's pods tolerate. `[]` for none. */
  taints?: readonly V1Taint[];
  /**
   * Capacity, also written as allocatable, on top of the defaults `cpu: "16"`, `memory: "64Gi"`,
   * `pods: "110"`, `ephemeral-storage: "500Gi"`.
   */
  capacity?: Readonly<Record<string, string>>;
  /** Cordoned (`spec.unschedulable`), as `kubectl cordon` leaves it; default `false`. */
  unschedulable?: boolean;
}

/**
 * How {@link registerNode} keeps the node after creating it.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * await registerNode(plane, { name: "cocoon-1" }, { signal: stop.signal }); // heartbeats until stop.abort()
 * ```
 */
export interface RegisterNodeKeepOptions {
  /**
   * Keep the node as `keepNode` in `./k8s` does (its Lease renewed, its status re-sent) until this
   * aborts, then mark it not ready. Without one the node is registered, its Lease written once, and
   * nothing heartbeats: a kube-controller-manager, if one runs, marks it unreachable after its grace period.
   */
  signal?: AbortSignal | undefined;
  /** The Lease's renewal interval while `signal` keeps the node; default 10 s. */
  leaseRenewMs?: number | undefined;
  /** The Lease's duration in seconds; default 40. */
  leaseDurationSeconds?: number | undefined;
  /**
   * Lift the `node.kubernetes.io/not-ready:NoSchedule` taint that admission puts on every new node,
   * by hand, once the node is Ready: the node lifecycle controller's part, for planes that run none.
   * Default: `true`, unless `client` is a {@link ControlPlane} started with `controllerManager: true`
   * (then the real controller lifts it, within its `--node-monitor-period`).
   */
  liftNotReadyTaint?: boolean | undefined;
}

/**
 * The capacity (and allocatable) of a node registered with {@link registerNode} by default.
 *
 * @example
 * ```ts
 * DEFAULT_NODE_CAPACITY.memory; // => "64Gi"
 * await registerNode(plane, { name: "big", capacity: { cpu: "64" } }); // memory, pods and ephemeral-storage stay the defaults
 * ```
 */
export const DEFAULT_NODE_CAPACITY: Readonly<Record<string, string>> = {
  cpu: "16",
  memory: "64Gi",
  pods: "110",
  "ephemeral-storage": "500Gi",
};

/**
 * Creates a schedulable Node and returns it as the server stores it, status included.
 *
 * From options it is a cocoon node as vk-cocoon registers it: labels `type=virtual-kubelet`,
 * `node-role.kubernetes.io/cocoon-vm=""`, `kubernetes.io/hostname=<name>` and the pool, the
 * virtual kubelet's `NoSchedule` taint, and a status with `Ready=True`, a hostname address and
 * capacity = allocatable. The pods `./meta` builds tolerate that taint and select the `default` pool,
 * so kube-scheduler ({@link startControlPlane} with `scheduler: true`) can place them there. A full
 * `V1Node` body is created as it is instead, its `status` written the same way.
 *
 * It is `keepNode` of `./k8s` with test defaults, one implementation: the node is created (or
 * adopted), its status written through the `status` subresource and its Lease in `kube-node-lease`,
 * and with `keep.signal` both are renewed until the signal aborts. Then, for a Ready node on a plane
 * without kube-controller-manager, the `node.kubernetes.io/not-ready:NoSchedule` taint that admission
 * puts on every new node is lifted, as the node lifecycle controller would (see
 * {@link RegisterNodeKeepOptions.liftNotReadyTaint}; never when the body asks for that taint).
 *
 * @param client - A `KubeConfig` allowed to create nodes and leases, or anything that holds one (a {@link ControlPlane}).
 * @throws CocoonError `ERR_INVALID_ARGUMENT`, before any request, for a body without `metadata.name` or
 * with one the API server could not store for a Node (not a DNS-1123 subdomain: `..`, `a/b`, uppercase);
 * the API server's error as client-node throws it.
 * @example
 * ```ts
 * await using plane = await startControlPlane({ scheduler: true });
 * await registerNode(plane, { name: "cocoon-1" });
 * await registerNode(plane, { name: "cocoon-2", capacity: { cpu: "64", memory: "256Gi" }, unschedulable: true });
 * ```
 */
export async function registerNode(
  client: KubeConfig | { readonly kubeConfig: KubeConfig; readonly pids?: { readonly kubeControllerManager?: number } },
  node: RegisterNodeOptions | V1Node,
  keep: RegisterNodeKeepOptions = {},
): Promise<V1Node> {
  const body = isNodeBody(node) ? node : cocoonNode(node);
  const name = body.metadata?.name;
  if (!name) throw new CocoonError("ERR_INVALID_ARGUMENT", "registerNode: the node body has no metadata.name");
  checkedObjectName(name, "Node", { helper: "registerNode", field: "metadata.name" }); // it goes into the status and node paths
  const kubeConfig = "kubeConfig" in client ? client.kubeConfig : client;
  const clients = { core: kubeConfig.makeApiClient(CoreV1Api), coordination: kubeConfig.makeApiClient(CoordinationV1Api) };
  const once = new AbortController();
  const { leaseRenewMs, leaseDurationSeconds } = keep;
  const settings = keeperSettings({ signal: keep.signal ?? once.signal, leaseRenewMs, leaseDurationSeconds }, keep.signal !== undefined);
  const keeper = await startKeeper(clientNodeWrites(clients), body, settings);
  if (keep.signal === undefined) {
    once.abort(); // registration only: the keeper stops at once, writing nothing more
    await keeper.stopped;
  }
  const withStatus = keeper.node;
  const controller = "pids" in client && client.pids.kubeControllerManager !== undefined;
  if (!(keep.liftNotReadyTaint ?? !controller) || body.status === undefined || !isReady(body.status)) return withStatus;
  // Admission (TaintNodesByCondition) taints every new node not-ready:NoSchedule; the node lifecycle
  // controller lifts it once the node is Ready. No controller runs here, so do its part.
  const taints = withStatus.spec?.taints ?? [];
  const wanted = taints.filter((t) => t.key !== NOT_READY_TAINT || body.spec?.taints?.some((w) => w.key === NOT_READY_TAINT));
  if (wanted.length === taints.length) return withStatus;
  withStatus.spec = Object.assign(withStatus.spec ?? {}, { taints: wanted });
  return clients.core.replaceNode({ name, body: withStatus });
}

const NOT_READY_TAINT = "node.kubernetes.io/not-ready";

const isReady = (status: V1NodeStatus): boolean => status.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

/** A body names itself in `metadata`; options name the node in `name`. */
const isNodeBody = (node: RegisterNodeOptions | V1Node): node is V1Node => "metadata" in node;

function cocoonNode(options: RegisterNodeOptions): V1Node & { status: V1NodeStatus } {
  const capacity = { ...DEFAULT_NODE_CAPACITY, ...options.capacity };
  const now = new Date();
  return {
    metadata: {
      name: options.name,
      labels: {
        type: "virtual-kubelet",
        [NODE_ROLE_LABEL]: "",
        [HOSTNAME_LABEL]: options.name,
        [Label.NodePool]: options.pool ?? DEFAULT_NODE_POOL,
        ...options.labels,
      },
    },
    spec: {
      taints: [...(options.taints ?? [{ ...PROVIDER_TAINT }])],
      ...(options.unschedulable && { unschedulable: true }),
    },
    status: {
      capacity,
      allocatable: capacity,
      addresses: [{ type: "Hostname", address: options.name }],
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "registered by registerNode",
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
    },
  };
}

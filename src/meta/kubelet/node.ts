import { CocoonError } from "../../errors.js";
import { DEFAULT_NODE_POOL, HOSTNAME_LABEL, Label, TOLERATION_KEY } from "../keys.js";
import { nodeResources, type NodeResourcesInput } from "./node-resources.js";
import { NODE_CONDITIONS, type VirtualNode, type VirtualNodeCondition } from "./node-types.js";

/**
 * The role label vk-cocoon puts on its node, with an empty value: `kubectl get nodes` shows the
 * role `cocoon-vm`.
 *
 * @example
 * ```ts
 * const nodes = await clients.core.listNode({ labelSelector: NODE_ROLE_LABEL });
 * ```
 */
export const NODE_ROLE_LABEL = "node-role.kubernetes.io/cocoon-vm";

/**
 * The taint vk-cocoon puts on its node, `virtual-kubelet.io/provider=cocoon:NoSchedule`: only pods
 * that tolerate {@link TOLERATION_KEY} (every pod the operator builds does) are scheduled there.
 *
 * @example
 * ```ts
 * `${PROVIDER_TAINT.key}=${PROVIDER_TAINT.value}:${PROVIDER_TAINT.effect}`; // => "virtual-kubelet.io/provider=cocoon:NoSchedule"
 * ```
 */
export const PROVIDER_TAINT = Object.freeze({ key: TOLERATION_KEY, value: "cocoon", effect: "NoSchedule" } as const);

/**
 * The port vk-cocoon serves the kubelet API on (`VK_KUBELET_PORT`'s default), published as the node's kubelet endpoint.
 *
 * @example
 * ```ts
 * const port = Number(process.env.VK_KUBELET_PORT) || DEFAULT_KUBELET_PORT;
 * ```
 */
export const DEFAULT_KUBELET_PORT = 10250;

/**
 * What {@link buildVirtualNode} needs: vk-cocoon's `VK_*` settings and what it measured.
 *
 * @example
 * ```ts
 * const options: VirtualNodeOptions = { name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, now: new Date() };
 * ```
 */
export interface VirtualNodeOptions {
  /** The node's name (`VK_NODE_NAME`), also its hostname label and address. */
  readonly name: string;
  /** The host's IP (`VK_NODE_IP`, else detected): the node's `InternalIP`. */
  readonly nodeIP: string;
  /** Host resources and the kept-snapshot cache plan, for `capacity` and `allocatable`. */
  readonly resources: NodeResourcesInput;
  /** The conditions' heartbeat and transition time. */
  readonly now: Date;
  /** The node pool (`VK_NODE_POOL`); `default` when absent or `""`. */
  readonly pool?: string | undefined;
  /** The guest CPU ABI class (`VK_SNAPSHOT_CPU_CLASS`); no label when absent or `""`. */
  readonly snapshotCompatibilityClass?: string | undefined;
  /** `status.nodeInfo.kubeletVersion`: the virtual kubelet's version. */
  readonly kubeletVersion?: string | undefined;
  /** The kubelet API port; {@link DEFAULT_KUBELET_PORT} when absent. */
  readonly kubeletPort?: number | undefined;
  /** `spec.providerID` (`VK_PROVIDER_ID`); none when absent or `""`. */
  readonly providerID?: string | undefined;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function labelValue(value: string, field: string): string {
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `virtual node: ${field} ${JSON.stringify(value)} is not a label value`);
  }
  return value;
}

/**
 * Returns the Node that vk-cocoon registers (`main.go`, `provider/capacity.go`, over
 * virtual-kubelet's `nodeutil.NewNode`), ready for `core.createNode`:
 *
 * - labels `type=virtual-kubelet`, `kubernetes.io/role=agent`, `kubernetes.io/hostname=<name>`,
 *   the pool (`cocoonstack.io/pool`), {@link NODE_ROLE_LABEL} and, when set,
 *   `cocoonstack.io/snapshot-cpu-class`;
 * - the {@link PROVIDER_TAINT}, and `spec.providerID` when set;
 * - `capacity` and `allocatable` from {@link nodeResources} (allocatable storage from the
 *   kept-snapshot cache plan, never above the storage capacity: no allocatable exceeds its capacity);
 * - conditions `Ready` `True` and no disk, memory, PID or network pressure, with vk-cocoon's reasons and
 *   messages, stamped `now` (Go leaves the times null until the first heartbeat);
 * - addresses `InternalIP` and `Hostname`, the kubelet endpoint port, `kubeletVersion`.
 *
 * Pure: nothing is sent. The operator's pods (`buildMainPod` and the others) tolerate the taint and
 * select the pool and class labels.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for an empty name or IP, an invalid `now`, a pool
 * or class that is not a label value, a port outside 1–65535, and as {@link nodeResources} throws.
 * @example
 * ```ts
 * const node = buildVirtualNode({ name: "cocoon-a", nodeIP: "10.0.0.4", pool: "gpu", resources: measured, now: new Date() });
 * await clients.core.createNode({ body: node });
 * ```
 */
export function buildVirtualNode(options: VirtualNodeOptions): VirtualNode {
  const { name, nodeIP, now } = options;
  if (!name) throw new CocoonError("ERR_INVALID_ARGUMENT", "virtual node: name must not be empty");
  if (!nodeIP) throw new CocoonError("ERR_INVALID_ARGUMENT", `virtual node ${name}: nodeIP must not be empty`);
  if (!(now instanceof Date) || Number.isNaN(now.getTime()))
    throw new CocoonError("ERR_INVALID_ARGUMENT", `virtual node ${name}: now must be a valid Date`);
  const port = options.kubeletPort ?? DEFAULT_KUBELET_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CocoonError(
      "ERR_INVALID_ARGUMENT",
      `virtual node ${name}: kubeletPort must be an integer from 1 to 65535, got ${String(port)}`,
    );
  }
  const labels: Record<string, string> = {
    [Label.NodePool]: labelValue(options.pool || DEFAULT_NODE_POOL, "pool"),
    [HOSTNAME_LABEL]: name,
    "kubernetes.io/role": "agent",
    [NODE_ROLE_LABEL]: "",
    type: "virtual-kubelet",
  };
  const snapshotClass = options.snapshotCompatibilityClass;
  if (snapshotClass) labels[Label.SnapshotCompatibilityClass] = labelValue(snapshotClass, "snapshotCompatibilityClass");
  const { capacity, allocatable } = nodeResources(options.resources);
  const time = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const conditions = NODE_CONDITIONS.map(([type, status, reason, message]): VirtualNodeCondition => ({
    type,
    status,
    lastHeartbeatTime: time,
    lastTransitionTime: time,
    reason,
    message,
  }));
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, labels },
    spec: { ...(options.providerID ? { providerID: options.providerID } : {}), taints: [{ ...PROVIDER_TAINT }] },
    status: {
      capacity,
      allocatable,
      conditions,
      addresses: [
        { type: "InternalIP", address: nodeIP },
        { type: "Hostname", address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
      nodeInfo: {
        machineID: "",
        systemUUID: "",
        bootID: "",
        kernelVersion: "",
        osImage: "",
        containerRuntimeVersion: "",
        kubeletVersion: options.kubeletVersion ?? "",
        kubeProxyVersion: "",
        operatingSystem: "",
        architecture: "",
      },
    },
  };
}

/**
 * A node condition as {@link buildVirtualNode} writes it (client-node's `V1NodeCondition` fits).
 *
 * @example
 * ```ts
 * const node = buildVirtualNode({ name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, now: new Date() });
 * const ready: VirtualNodeCondition | undefined = node.status.conditions[0];
 * ready?.reason; // => "KubeletReady"
 * ```
 */
export interface VirtualNodeCondition {
  type: string;
  status: "True" | "False";
  lastHeartbeatTime: Date;
  lastTransitionTime: Date;
  reason: string;
  message: string;
}

/**
 * The Node {@link buildVirtualNode} returns, field for field what vk-cocoon registers; assignable to
 * client-node's `V1Node`.
 *
 * @example
 * ```ts
 * const node: VirtualNode = buildVirtualNode({ name: "cocoon-a", nodeIP: "10.0.0.4", resources: measured, now: new Date() });
 * await clients.core.createNode({ body: node });
 * ```
 */
export interface VirtualNode {
  apiVersion: "v1";
  kind: "Node";
  metadata: { name: string; labels: Record<string, string> };
  spec: { providerID?: string; taints: { key: string; value: string; effect: string }[] };
  status: {
    capacity: Record<string, string>;
    allocatable: Record<string, string>;
    conditions: VirtualNodeCondition[];
    addresses: { type: "InternalIP" | "Hostname"; address: string }[];
    daemonEndpoints: { kubeletEndpoint: { Port: number } };
    nodeInfo: {
      machineID: string;
      systemUUID: string;
      bootID: string;
      kernelVersion: string;
      osImage: string;
      containerRuntimeVersion: string;
      kubeletVersion: string;
      kubeProxyVersion: string;
      operatingSystem: string;
      architecture: string;
    };
  };
}

/** vk-cocoon's `defaultNodeConditions`: type, status, reason, message. */
export const NODE_CONDITIONS: readonly (readonly [string, "True" | "False", string, string])[] = [
  ["Ready", "True", "KubeletReady", "vk-cocoon is ready"],
  ["DiskPressure", "False", "KubeletHasNoDiskPressure", "vk-cocoon has no disk pressure"],
  ["MemoryPressure", "False", "KubeletHasSufficientMemory", "vk-cocoon has sufficient memory"],
  ["PIDPressure", "False", "KubeletHasSufficientPID", "vk-cocoon has sufficient PID available"],
  ["NetworkUnavailable", "False", "RouteCreated", "NodeController create implicit route"],
];

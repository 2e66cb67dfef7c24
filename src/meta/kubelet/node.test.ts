import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { buildVirtualNode, NODE_ROLE_LABEL, PROVIDER_TAINT } from "./node.js";
import { nodeResources, type NodeResourcesInput } from "./node-resources.js";

const GiB = 2 ** 30;
const host: NodeResourcesInput = {
  cpuCores: 8,
  memoryBytes: 16 * GiB,
  storageBytes: 100 * GiB,
  snapshotCache: { allocatableBytes: 60 * GiB },
};
const NOW = new Date("2026-08-12T10:00:00.750Z");

describe("nodeResources", () => {
  it("vk-cocoon's capacity and allocatable: 20 % kept back from all but pods, storage from the cache plan", () => {
    expect(nodeResources(host)).toEqual({
      capacity: { cpu: "8", "ephemeral-storage": "100Gi", memory: "16Gi", pods: "256" },
      allocatable: { cpu: "6", "ephemeral-storage": "48Gi", memory: "13743895347", pods: "256" },
    });
  });

  it("adds huge pages under their page size's name, and only when there are some", () => {
    const huge = nodeResources({ ...host, hugepages: { pageSizeBytes: 2 * 2 ** 20, totalBytes: 1024 * 2 * 2 ** 20 } });
    expect(huge.capacity["hugepages-2Mi"]).toBe("2Gi");
    expect(huge.allocatable["hugepages-2Mi"]).toBe("1717986918");
    expect(Object.keys(huge.capacity)).toEqual(["cpu", "ephemeral-storage", "hugepages-2Mi", "memory", "pods"]);
    const gigantic = nodeResources({ ...host, hugepages: { pageSizeBytes: GiB, totalBytes: 4 * GiB }, reservePercent: 0 });
    expect(gigantic.allocatable["hugepages-1Gi"]).toBe("4Gi");
    expect(nodeResources({ ...host, hugepages: { pageSizeBytes: 2 * 2 ** 20, totalBytes: 0 } }).capacity).not.toHaveProperty(
      "hugepages-2Mi",
    );
  });

  it.each([
    [0, { cpu: "8", "ephemeral-storage": "60Gi", memory: "16Gi", pods: "256" }],
    [100, { cpu: "0", "ephemeral-storage": "0", memory: "0", pods: "256" }],
    [50, { cpu: "4", "ephemeral-storage": "30Gi", memory: "8Gi", pods: "256" }],
  ])("reservePercent %i", (reservePercent, allocatable) => {
    expect(nodeResources({ ...host, reservePercent }).allocatable).toEqual(allocatable);
  });

  it("writes Go's quantity text: decimal for counts, binary units for bytes", () => {
    const big = nodeResources({ ...host, cpuCores: 1000, maxPods: 1500, memoryBytes: 1000n, storageBytes: 5 * 2 ** 40 });
    expect(big.capacity).toEqual({ cpu: "1k", "ephemeral-storage": "5Ti", memory: "1k", pods: "1500" });
    expect(big.allocatable.cpu).toBe("800");
  });

  it.each([
    [{ reservePercent: 101 }, "ERR_INVALID_ARGUMENT", "reservePercent must be an integer from 0 to 100, got 101"],
    [{ reservePercent: 2.5 }, "ERR_INVALID_ARGUMENT", "reservePercent must be an integer from 0 to 100, got 2.5"],
    [{ cpuCores: -1 }, "ERR_INVALID_ARGUMENT", "cpuCores must not be negative, got -1"],
    [{ memoryBytes: 0.5 }, "ERR_INVALID_INTEGER", "memoryBytes 0.5 is not a safe integer"],
    [
      { snapshotCache: { allocatableBytes: 2 ** 60 } },
      "ERR_INVALID_INTEGER",
      "snapshotCache.allocatableBytes 1152921504606847000 is not a safe integer",
    ],
  ])("refuses %j", (bad, code, message) => {
    expect(() => nodeResources({ ...host, ...bad })).toThrow(expect.objectContaining({ code, message: `node resources: ${message}` }));
  });
});

describe("buildVirtualNode", () => {
  it("is the Node vk-cocoon registers", () => {
    const node = buildVirtualNode({
      name: "cocoon-a",
      nodeIP: "10.0.0.4",
      pool: "gpu",
      snapshotCompatibilityClass: "n2-cascade-lake-v1",
      kubeletVersion: "v0.9.0",
      providerID: "gce://p/z/cocoon-a",
      resources: host,
      now: NOW,
    });
    const time = new Date("2026-08-12T10:00:00Z");
    const condition = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastHeartbeatTime: time,
      lastTransitionTime: time,
      reason,
      message,
    });
    expect(node).toEqual({
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        name: "cocoon-a",
        labels: {
          "cocoonstack.io/pool": "gpu",
          "cocoonstack.io/snapshot-cpu-class": "n2-cascade-lake-v1",
          "kubernetes.io/hostname": "cocoon-a",
          "kubernetes.io/role": "agent",
          "node-role.kubernetes.io/cocoon-vm": "",
          type: "virtual-kubelet",
        },
      },
      spec: { providerID: "gce://p/z/cocoon-a", taints: [{ key: "virtual-kubelet.io/provider", value: "cocoon", effect: "NoSchedule" }] },
      status: {
        ...nodeResources(host),
        conditions: [
          condition("Ready", "True", "KubeletReady", "vk-cocoon is ready"),
          condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "vk-cocoon has no disk pressure"),
          condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "vk-cocoon has sufficient memory"),
          condition("PIDPressure", "False", "KubeletHasSufficientPID", "vk-cocoon has sufficient PID available"),
          condition("NetworkUnavailable", "False", "RouteCreated", "NodeController create implicit route"),
        ],
        addresses: [
          { type: "InternalIP", address: "10.0.0.4" },
          { type: "Hostname", address: "cocoon-a" },
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: "",
          systemUUID: "",
          bootID: "",
          kernelVersion: "",
          osImage: "",
          containerRuntimeVersion: "",
          kubeletVersion: "v0.9.0",
          kubeProxyVersion: "",
          operatingSystem: "",
          architecture: "",
        },
      },
    });
  });

  it("defaults: the default pool, no class label, no provider ID, port 10250", () => {
    const node = buildVirtualNode({ name: "n", nodeIP: "10.0.0.4", resources: host, now: NOW, snapshotCompatibilityClass: "" });
    expect(node.metadata.labels).toEqual({
      "cocoonstack.io/pool": "default",
      "kubernetes.io/hostname": "n",
      "kubernetes.io/role": "agent",
      [NODE_ROLE_LABEL]: "",
      type: "virtual-kubelet",
    });
    expect(node.spec).toEqual({ taints: [{ ...PROVIDER_TAINT }] });
    expect(
      buildVirtualNode({ name: "n", nodeIP: "1.2.3.4", resources: host, now: NOW, kubeletPort: 10351 }).status.daemonEndpoints,
    ).toEqual({
      kubeletEndpoint: { Port: 10351 },
    });
  });

  it("the taint constant cannot be changed, and each node gets its own copy", () => {
    expect(Object.isFrozen(PROVIDER_TAINT)).toBe(true);
    const node = buildVirtualNode({ name: "n", nodeIP: "10.0.0.4", resources: host, now: NOW });
    expect(node.spec.taints[0]).not.toBe(PROVIDER_TAINT);
  });

  it.each([
    [{ name: "" }, "virtual node: name must not be empty"],
    [{ nodeIP: "" }, "virtual node n: nodeIP must not be empty"],
    [{ now: new Date(Number.NaN) }, "virtual node n: now must be a valid Date"],
    [{ pool: "a/b" }, 'virtual node: pool "a/b" is not a label value'],
    [{ snapshotCompatibilityClass: "-x" }, 'virtual node: snapshotCompatibilityClass "-x" is not a label value'],
    [{ snapshotCompatibilityClass: "x".repeat(64) }, `virtual node: snapshotCompatibilityClass "${"x".repeat(64)}" is not a label value`],
    [{ kubeletPort: 0 }, "virtual node n: kubeletPort must be an integer from 1 to 65535, got 0"],
  ])("refuses %j", (bad, message) => {
    let thrown: unknown;
    try {
      buildVirtualNode({ name: "n", nodeIP: "10.0.0.4", resources: host, now: NOW, ...bad });
    } catch (err) {
      thrown = err;
    }
    expect(isCocoonError(thrown) && thrown.code === "ERR_INVALID_ARGUMENT" && thrown.message).toBe(message);
  });
});

/**
 * `registerNode` on the shared control plane (no scheduler needed): what it writes, in which
 * requests, and what the API server keeps. Node names are random, so reruns never collide.
 */
import { CoordinationV1Api, CoreV1Api, type V1Node } from "@kubernetes/client-node";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { buildMainPod, HOSTNAME_LABEL, Label, TOLERATION_KEY } from "../../src/meta/index.js";
import { DEFAULT_NODE_CAPACITY, registerNode } from "../../src/testing/index.js";
import { getControlPlane } from "./helpers.js";
import { startRecordingProxy, type RecordingProxy } from "./k8s-counting-proxy.js";

let proxy: RecordingProxy;
const nodeName = (prefix: string): string => `${prefix}-${randomBytes(4).toString("hex")}`;
const LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";
const calls = (): string[][] => proxy.requests.map((r) => [r.method, r.path, String(r.status)]);

beforeAll(async () => {
  proxy = await startRecordingProxy(getControlPlane().connection);
});
afterAll(() => proxy?.close());

describe("registerNode", () => {
  it("registers a Ready cocoon node as vk-cocoon does: create, status, Lease, then the not-ready taint lifted", async () => {
    const name = nodeName("cocoon");
    proxy.reset();
    const node = await registerNode(proxy.kubeConfig(), { name });

    expect(calls()).toEqual([
      ["POST", "/api/v1/nodes", "201"],
      ["PATCH", `/api/v1/nodes/${name}/status`, "200"],
      ["GET", `${LEASES}/${name}`, "404"],
      ["POST", LEASES, "201"],
      ["PUT", `/api/v1/nodes/${name}`, "200"],
    ]);
    const lease = await getControlPlane()
      .kubeConfig.makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ name, namespace: "kube-node-lease" });
    expect([lease.spec?.holderIdentity, lease.spec?.leaseDurationSeconds, lease.metadata?.ownerReferences]).toEqual([
      name,
      40,
      [{ apiVersion: "v1", kind: "Node", name, uid: node.metadata?.uid }],
    ]);
    const stored = await getControlPlane().kubeConfig.makeApiClient(CoreV1Api).readNode({ name });
    for (const seen of [node, stored]) {
      expect(seen.metadata?.labels).toEqual({
        type: "virtual-kubelet",
        "node-role.kubernetes.io/cocoon-vm": "",
        "kubernetes.io/hostname": name,
        "cocoonstack.io/pool": "default",
      });
      expect(seen.spec?.taints).toEqual([{ key: "virtual-kubelet.io/provider", value: "cocoon", effect: "NoSchedule" }]);
      expect(seen.spec?.unschedulable).toBeUndefined();
      expect(seen.status?.capacity).toEqual({ cpu: "16", memory: "64Gi", pods: "110", "ephemeral-storage": "500Gi" });
      expect(seen.status?.allocatable).toEqual(DEFAULT_NODE_CAPACITY);
      expect(seen.status?.addresses).toEqual([{ type: "Hostname", address: name }]);
      expect(seen.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([["Ready", "True", "KubeletReady"]]);
    }
  });

  it("matches what the operator's pods select and tolerate", async () => {
    const node = await registerNode(getControlPlane(), { name: nodeName("selected") });
    const pod = buildMainPod({ metadata: { name: "demo", namespace: "prod", uid: "u-1" }, spec: { agent: { image: "ubuntu" } } });
    for (const [key, value] of Object.entries(pod.spec.nodeSelector)) expect(node.metadata?.labels?.[key]).toBe(value);
    for (const taint of node.spec?.taints ?? []) {
      expect(
        pod.spec.tolerations.some((t) => t.key === taint.key && t.operator === "Exists" && (t.effect ?? taint.effect) === taint.effect),
      ).toBe(true);
    }
  });

  it("takes the pool, extra labels, taints, capacity and a cordon from its options", async () => {
    const name = nodeName("custom");
    const node = await registerNode(getControlPlane(), {
      name,
      pool: "gpu",
      labels: { [Label.SnapshotCompatibilityClass]: "zen4", type: "cocoon" },
      taints: [],
      capacity: { cpu: "2", "nvidia.com/gpu": "1" },
      unschedulable: true,
    });
    expect(node.metadata?.labels).toEqual({
      type: "cocoon",
      "node-role.kubernetes.io/cocoon-vm": "",
      [HOSTNAME_LABEL]: name,
      [Label.NodePool]: "gpu",
      [Label.SnapshotCompatibilityClass]: "zen4",
    });
    expect([node.spec?.taints, node.spec?.unschedulable]).toEqual([undefined, true]);
    expect(node.status?.allocatable).toEqual({
      cpu: "2",
      memory: "64Gi",
      pods: "110",
      "ephemeral-storage": "500Gi",
      "nvidia.com/gpu": "1",
    });
  });

  it("creates a full V1Node body as it is, its status written through the status subresource", async () => {
    const name = nodeName("body");
    const body: V1Node = {
      metadata: { name, labels: { [HOSTNAME_LABEL]: name, [Label.NodePool]: "default" }, annotations: { note: "from a builder" } },
      spec: { taints: [{ key: TOLERATION_KEY, value: "cocoon", effect: "NoSchedule" }] },
      status: {
        capacity: { cpu: "8", memory: "16Gi", pods: "10" },
        allocatable: { cpu: "7", memory: "15Gi", pods: "10" },
        conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", message: "ok" }],
      },
    };
    proxy.reset();
    const node = await registerNode(proxy.kubeConfig(), body);
    expect(calls().map(([method, path]) => `${method} ${path}`)).toEqual([
      "POST /api/v1/nodes",
      `PATCH /api/v1/nodes/${name}/status`,
      `GET ${LEASES}/${name}`,
      `POST ${LEASES}`,
      `PUT /api/v1/nodes/${name}`,
    ]);
    expect(JSON.parse(proxy.requests[0]!.body)).toEqual({ apiVersion: "v1", kind: "Node", metadata: body.metadata, spec: body.spec });
    expect([node.metadata?.annotations, node.spec?.taints, node.status?.allocatable]).toEqual([
      { note: "from a builder" },
      body.spec?.taints,
      { cpu: "7", memory: "15Gi", pods: "10" },
    ]);
  });

  it("leaves a body without a Ready status as admission tainted it: not ready, so not schedulable", async () => {
    const name = nodeName("unready");
    proxy.reset();
    const node = await registerNode(proxy.kubeConfig(), { metadata: { name } });
    expect(calls()).toEqual([
      ["POST", "/api/v1/nodes", "201"],
      ["GET", `${LEASES}/${name}`, "404"],
      ["POST", LEASES, "201"],
    ]);
    expect(node.spec?.taints).toEqual([{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }]);
  });

  it("keeps the node while the signal lasts: one Lease PUT a tick, then Ready=False at the stop", async () => {
    const name = nodeName("kept");
    const stop = new AbortController();
    proxy.reset();
    await registerNode(proxy.kubeConfig(), { name }, { signal: stop.signal, leaseRenewMs: 200, leaseDurationSeconds: 1 });
    proxy.reset();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    stop.abort();
    await vi.waitFor(() => expect(calls().at(-1)?.[0]).toBe("PATCH"));
    const ticks = calls().slice(0, -1);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ticks.map((c) => c.join(" ")))).toEqual(new Set([`PUT ${LEASES}/${name} 200`]));
    const stored = await getControlPlane().kubeConfig.makeApiClient(CoreV1Api).readNode({ name });
    expect(stored.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([["Ready", "False", "KubeletNotReady"]]);
  });

  it("refuses a body without a name before sending anything", async () => {
    proxy.reset();
    const err = await registerNode(proxy.kubeConfig(), { metadata: {} }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toBe("registerNode: the node body has no metadata.name");
    expect(proxy.requests).toEqual([]);
  });
});

/**
 * `keepNode` against the real controllers: a control plane of this file's own with kube-scheduler
 * and kube-controller-manager (node lifecycle controller and garbage collector), its node monitor
 * shortened so a change shows within seconds. Every request the keeper makes goes through a
 * recording proxy, so the counts are the wire's, not the keeper's own.
 */
import { CoordinationV1Api, CoreV1Api, type V1Node, type V1Taint } from "@kubernetes/client-node";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClients, keepNode, NODE_LEASE_NAMESPACE, type CocoonClients, type KeptNode } from "../../src/k8s/index.js";
import { API_VERSION, Kind } from "../../src/apis/v1/index.js";
import { buildMainPod, PROVIDER_TAINT, type NodeResourcesInput } from "../../src/meta/index.js";
import { startControlPlane, type ControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries } from "./helpers.js";
import { startRecordingProxy, type RecordingProxy } from "./k8s-counting-proxy.js";

const NS = "kept";
const NODE = "cocoon-kept";
const GiB = 2 ** 30;
const MEASURED: NodeResourcesInput = {
  cpuCores: 8,
  memoryBytes: 32 * GiB,
  storageBytes: 200 * GiB,
  snapshotCache: { allocatableBytes: 100 * GiB },
};
const NOT_READY = "node.kubernetes.io/not-ready";
const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases/${NODE}`;

let plane: ControlPlane;
let proxy: RecordingProxy;
let clients: CocoonClients;
let admin: { core: CoreV1Api; coordination: CoordinationV1Api };
let kept: KeptNode<V1Node>;
const stop = new AbortController();
const errors: string[] = [];

beforeAll(async () => {
  // The first run on a machine may build kube-scheduler and kube-controller-manager with Go.
  plane = await startControlPlane({
    binaries: controlPlaneBinaries(),
    scheduler: true,
    controllerManager: true,
    // The controller looks every second; a node is unreachable 20 s after its last heartbeat.
    extraControllerManagerFlags: ["--node-monitor-period=1s", "--node-monitor-grace-period=20s"],
    stopTimeoutMs: 5_000,
  });
  proxy = await startRecordingProxy(plane.connection);
  clients = createClients(proxy.kubeConfig());
  admin = { core: plane.kubeConfig.makeApiClient(CoreV1Api), coordination: plane.kubeConfig.makeApiClient(CoordinationV1Api) };
  await admin.core.createNamespace({ body: { metadata: { name: NS } } });
}, 15 * 60_000);

afterAll(async () => {
  stop.abort();
  clients?.close();
  await proxy?.close();
  await plane?.stop();
});

const readNode = (): Promise<V1Node> => admin.core.readNode({ name: NODE });
const taintsOf = (node: V1Node): [string, string][] => (node.spec?.taints ?? []).map((t: V1Taint) => [t.key, t.effect]);
const requests = (): string[] => proxy.requests.map((r) => `${r.method} ${r.path.split("?")[0] ?? ""}`);

/**
 * The main pod of a new CocoonSet, as the operator builds it (it tolerates the provider taint and
 * selects the default pool). The set is stored first: the garbage collector runs here, and would
 * delete a pod whose owner does not exist.
 */
async function operatorPod(name: string): Promise<string> {
  const set = await createClients(plane.kubeConfig).cocoonSets.create({
    apiVersion: API_VERSION,
    kind: Kind.CocoonSet,
    metadata: { name, namespace: NS },
    spec: { agent: { image: "ghcr.io/cocoonstack/ubuntu:24.04", resources: { requests: { cpu: "1", memory: "1Gi" } } } },
  });
  const created = await admin.core.createNamespacedPod({ namespace: NS, body: buildMainPod(set) });
  return created.metadata?.name ?? "";
}

async function podScheduled(name: string): Promise<{ nodeName: string | undefined; reason?: string; message?: string }> {
  return vi.waitFor(
    async () => {
      const pod = await admin.core.readNamespacedPod({ name, namespace: NS });
      const scheduled = pod.status?.conditions?.find((c) => c.type === "PodScheduled");
      if (pod.spec?.nodeName) return { nodeName: pod.spec.nodeName };
      if (scheduled?.status !== "False") throw new Error(`pod ${name} not tried yet`);
      return { nodeName: undefined, reason: scheduled.reason ?? "", message: scheduled.message ?? "" };
    },
    { timeout: 15_000, interval: 200 },
  );
}

describe("keepNode with the real node lifecycle controller", () => {
  it("registers the node, and the controller lifts the not-ready taint while the keeper runs", async () => {
    proxy.reset();
    kept = await keepNode(clients, {
      name: NODE,
      nodeIP: "10.0.0.4",
      resources: MEASURED,
      signal: stop.signal,
      leaseDurationSeconds: 4,
      leaseRenewMs: 1_000,
      logger: { error: (message) => errors.push(message) },
    });
    expect(requests()).toEqual([
      "POST /api/v1/nodes",
      `PATCH /api/v1/nodes/${NODE}/status`,
      `GET ${LEASE_PATH}`,
      `POST /apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
    ]);
    // Admission taints every new node not-ready:NoSchedule; the controller lifts it once the node is Ready.
    expect(taintsOf(kept.node)).toContainEqual([PROVIDER_TAINT.key, "NoSchedule"]);
    await vi.waitFor(async () => expect(taintsOf(await readNode())).toEqual([[PROVIDER_TAINT.key, "NoSchedule"]]), {
      timeout: 15_000,
      interval: 250,
    });
  });

  it("renews its Lease in kube-node-lease, owned by the Node, one PUT a tick", async () => {
    const node = await readNode();
    const first = await admin.coordination.readNamespacedLease({ name: NODE, namespace: NODE_LEASE_NAMESPACE });
    expect([first.spec?.holderIdentity, first.spec?.leaseDurationSeconds, first.metadata?.ownerReferences]).toEqual([
      NODE,
      4,
      [{ apiVersion: "v1", kind: "Node", name: NODE, uid: node.metadata?.uid }],
    ]);
    proxy.reset();
    await sleep(2_500);
    const later = await admin.coordination.readNamespacedLease({ name: NODE, namespace: NODE_LEASE_NAMESPACE });
    expect(new Date(String(later.spec?.renewTime)).getTime()).toBeGreaterThan(new Date(String(first.spec?.renewTime)).getTime());
    // An unchanged status is not sent between reports (every 60 s): only the Lease goes out.
    expect(new Set(requests())).toEqual(new Set([`PUT ${LEASE_PATH}`]));
    expect(requests().length).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });

  it("writes a capacity change once, and nothing for an unchanged one", async () => {
    proxy.reset();
    await expect(kept.update(MEASURED)).resolves.toBe(false);
    expect(requests()).toEqual([]);
    const planned = { ...MEASURED, snapshotCache: { allocatableBytes: 50 * GiB } };
    await expect(kept.update(planned)).resolves.toBe(true);
    await expect(kept.update(planned)).resolves.toBe(false);
    expect(requests().filter((r) => !r.startsWith("PUT /apis/coordination"))).toEqual([`PATCH /api/v1/nodes/${NODE}/status`]);
    const node = await readNode();
    expect([node.status?.capacity?.["ephemeral-storage"], node.status?.allocatable?.["ephemeral-storage"]]).toEqual(["200Gi", "40Gi"]);
    expect(kept.node.status?.allocatable?.["ephemeral-storage"]).toBe("40Gi");
  });

  it("takes the operator's pods while Ready", async () => {
    expect((await podScheduled(await operatorPod("while-kept"))).nodeName).toBe(NODE);
  });

  it("marks the node not ready at the stop; the controller taints it not-ready:NoSchedule and the operator's pods stay Pending", async () => {
    proxy.reset();
    stop.abort();
    await kept.stopped;
    expect(requests().at(-1)).toBe(`PATCH /api/v1/nodes/${NODE}/status`);
    const ready = (await readNode()).status?.conditions?.find((c) => c.type === "Ready");
    expect([ready?.status, ready?.reason, ready?.message]).toEqual(["False", "KubeletNotReady", "the virtual kubelet stopped"]);
    await vi.waitFor(
      async () =>
        expect(taintsOf(await readNode())).toEqual([
          [PROVIDER_TAINT.key, "NoSchedule"],
          [NOT_READY, "NoSchedule"],
        ]),
      { timeout: 15_000, interval: 250 },
    );
    proxy.reset();
    await sleep(1_500);
    expect(requests()).toEqual([]); // stopped: no more heartbeats

    const name = await operatorPod("after-stop");
    const { nodeName, reason, message } = await podScheduled(name);
    expect([nodeName, reason]).toEqual([undefined, "Unschedulable"]);
    // The scheduler (1.35) counts the taints without naming them; the one the pod does not tolerate is not-ready.
    expect(message).toMatch(/^0\/1 nodes are available: 1 node\(s\) had untolerated taint/);
    const pod = await admin.core.readNamespacedPod({ name, namespace: NS });
    const tolerated = (t: V1Taint): boolean =>
      pod.spec?.tolerations?.some((o) => o.key === t.key && (o.effect === undefined || o.effect === t.effect)) ?? false;
    const untolerated = taintsOf(await readNode()).filter(([key, effect]) => !tolerated({ key, effect }));
    expect(untolerated).toEqual([[NOT_READY, "NoSchedule"]]);
  });

  it("leaves the Lease to the garbage collector when the node is deleted", async () => {
    await admin.core.deleteNode({ name: NODE });
    await vi.waitFor(
      async () => {
        const gone = await admin.coordination.readNamespacedLease({ name: NODE, namespace: NODE_LEASE_NAMESPACE }).then(
          () => false,
          () => true,
        );
        expect(gone).toBe(true);
      },
      { timeout: 15_000, interval: 250 },
    );
  });
});

// The node the virtual kubelet registers, on the real API server: it accepts it as built, and every pod the
// operator builds tolerates its taints and selects its labels by the scheduler's rules (label
// matching evaluated by the API server itself, the taint filter as kube-scheduler's TaintToleration
// plugin has it), while pods of another pool, or without the toleration, do not.
import { randomBytes } from "node:crypto";
import { PatchStrategy, setHeaderOptions, type V1Node, type V1Pod, type V1Taint, type V1Toleration } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients, type CocoonClients } from "../../src/k8s/index.js";
import {
  Annotation,
  NODE_ROLE_LABEL,
  PROVIDER_TAINT,
  buildMainPod,
  buildSubAgentPod,
  buildToolboxPod,
  buildVirtualNode,
  buildWakePod,
  vmNameForDeployment,
  type CocoonPod,
  type CocoonSetLike,
} from "../../src/meta/index.js";
import { planSnapshotCache } from "../../src/snapshot/index.js";
import { createTestNamespace, getControlPlane } from "./helpers.js";

const GiB = 2 ** 30;
const suffix = randomBytes(3).toString("hex");
const pool = `pool-${suffix}`;
const snapshotClass = "n2-cascade-lake-v1";
const nodeName = `cocoon-${suffix}`;
const otherNodeName = `cocoon-other-${suffix}`;
const NOW = new Date("2026-08-12T10:00:00Z");

let ns: string;
let admin: CocoonClients;

/** The node as vk-cocoon would register it, its allocatable storage from the kept-snapshot cache plan. */
function kubeletNode(name: string, nodePool: string) {
  const plan = planSnapshotCache({
    node: name,
    snapshots: [
      { vmName: "vk-a-x-0", sizeBytes: 30 * GiB, lastUsedMs: 1, kept: true },
      { vmName: "vk-a-y-0", sizeBytes: 10 * GiB, lastUsedMs: 2, kept: false },
    ],
    hints: [],
    capacityBytes: 100 * GiB,
    maxCacheBytes: 50 * GiB,
    nowMs: 10,
  });
  return buildVirtualNode({
    name,
    nodeIP: "10.0.0.4",
    pool: nodePool,
    snapshotCompatibilityClass: snapshotClass,
    kubeletVersion: "v0.9.0",
    resources: { cpuCores: 16, memoryBytes: 64 * GiB, storageBytes: 100 * GiB, snapshotCache: plan },
    now: NOW,
  });
}

const NOT_READY = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };
let created: V1Node;

beforeAll(async () => {
  ns = await createTestNamespace("k8s-node");
  admin = createClients(getControlPlane().kubeConfig);
  created = await admin.core.createNode({ body: kubeletNode(nodeName, pool) });
  await admin.core.createNode({ body: kubeletNode(otherNodeName, `other-${pool}`) });
  // The TaintNodesByCondition admission plugin taints every new node not-ready; kube-controller-manager's
  // node lifecycle controller lifts it once it sees Ready=True. This control plane runs no controller
  // manager, so do what it does.
  for (const name of [nodeName, otherNodeName]) {
    await admin.core.patchNode(
      { name, body: { spec: { taints: [{ ...PROVIDER_TAINT }] } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
  }
});

afterAll(async () => {
  for (const name of [nodeName, otherNodeName]) await admin.core.deleteNode({ name }).catch(() => undefined);
  admin.close();
});

/** kube-scheduler's `ToleratesTaint` (k8s.io/api/core/v1/toleration.go). */
function tolerates(toleration: V1Toleration, taint: V1Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? "") {
    case "":
    case "Equal":
      return (toleration.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    default:
      return false;
  }
}

/** The TaintToleration filter: every `NoSchedule` and `NoExecute` taint is tolerated. */
const toleratesNode = (pod: V1Pod, node: V1Node): boolean =>
  (node.spec?.taints ?? [])
    .filter((taint) => taint.effect === "NoSchedule" || taint.effect === "NoExecute")
    .every((taint) => (pod.spec?.tolerations ?? []).some((toleration) => tolerates(toleration, taint)));

/**
 * The nodes the pod's `nodeSelector` and required node affinity select, as the API server
 * evaluates them (the label selector semantics the NodeAffinity filter uses); a pod bound by
 * `spec.nodeName` selects that node only.
 */
async function selectedNodes(pod: V1Pod): Promise<string[]> {
  const requirements = Object.entries(pod.spec?.nodeSelector ?? {}).map(([key, value]) => `${key}=${value}`);
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  expect(terms.length).toBeLessThanOrEqual(1); // the operator writes one term at most
  for (const expression of terms[0]?.matchExpressions ?? []) {
    expect(expression.operator).toBe("In");
    requirements.push(`${expression.key} in (${(expression.values ?? []).join(",")})`);
  }
  const nodes = await admin.core.listNode({ labelSelector: requirements.join(",") });
  const names = nodes.items.map((node) => node.metadata?.name ?? "").filter((name) => name === nodeName || name === otherNodeName);
  return pod.spec?.nodeName ? names.filter((name) => name === pod.spec?.nodeName) : names;
}

describe("the virtual kubelet's node on a real API server", () => {
  it("is stored as built: labels, the provider taint, capacity and allocatable net of the snapshot cache", async () => {
    expect(created.spec?.taints).toEqual([{ ...PROVIDER_TAINT }, NOT_READY]); // until Ready is seen: the operator's pods wait
    const node = await admin.core.readNode({ name: nodeName });
    expect(node.metadata?.labels).toMatchObject({
      "cocoonstack.io/pool": pool,
      "cocoonstack.io/snapshot-cpu-class": snapshotClass,
      [NODE_ROLE_LABEL]: "",
      "kubernetes.io/hostname": nodeName,
      "kubernetes.io/role": "agent",
      type: "virtual-kubelet",
    });
    expect(node.spec?.taints).toEqual([{ key: "virtual-kubelet.io/provider", value: "cocoon", effect: "NoSchedule" }]);
    // 30 GiB kept in the cache: 70 GiB allocatable before the 20 % reserve.
    expect(node.status?.capacity).toEqual({ cpu: "16", "ephemeral-storage": "100Gi", memory: "64Gi", pods: "256" });
    expect(node.status?.allocatable).toEqual({ cpu: "12", "ephemeral-storage": "56Gi", memory: "54975581388", pods: "256" });
    expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.lastHeartbeatTime])).toEqual([
      ["Ready", "True", "KubeletReady", NOW],
      ["DiskPressure", "False", "KubeletHasNoDiskPressure", NOW],
      ["MemoryPressure", "False", "KubeletHasSufficientMemory", NOW],
      ["PIDPressure", "False", "KubeletHasSufficientPID", NOW],
      ["NetworkUnavailable", "False", "RouteCreated", NOW],
    ]);
    expect(node.status?.addresses).toEqual([
      { type: "InternalIP", address: "10.0.0.4" },
      { type: "Hostname", address: nodeName },
    ]);
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(10250);
    expect(node.status?.nodeInfo?.kubeletVersion).toBe("v0.9.0");
  });

  describe("the operator's pods tolerate and select it", () => {
    const spec = { nodePool: pool, snapshotCompatibilityClass: snapshotClass };
    const pinned = (): CocoonSetLike => ({
      metadata: { name: "pinned", namespace: ns, uid: "u-pinned", generation: 1 },
      spec: { ...spec, nodeName, agent: { image: "ghcr.io/x:1" }, toolboxes: [{ name: "db", image: "ghcr.io/db:1" }] },
    });
    const hinted = (): CocoonSetLike => ({
      metadata: { name: "hinted", namespace: ns, uid: "u-hinted", generation: 1, annotations: { [Annotation.HibernatedOnNode]: nodeName } },
      spec: { ...spec, agent: { image: "ghcr.io/x:1" } },
    });
    const pods: [string, () => CocoonPod][] = [
      ["main, pinned by a required hostname affinity", () => buildMainPod(pinned())],
      ["sub-agent, bound to the main's node", () => buildSubAgentPod(pinned(), 1, vmNameForDeployment(ns, "pinned", 0), nodeName)],
      ["toolbox", () => buildToolboxPod(pinned(), { name: "db", image: "ghcr.io/db:1" })],
      ["wake pod, with the hint's preferred affinity", () => buildWakePod(hinted())],
      ["main, unpinned", () => buildMainPod(hinted())],
    ];

    it.each(pods)("%s", async (_name, build) => {
      const built = build();
      const created = await admin.core.createNamespacedPod({
        namespace: ns,
        body: { ...built, metadata: { ...built.metadata, name: `${built.metadata.name}-${randomBytes(2).toString("hex")}` } },
      });
      const [node, other] = await Promise.all([admin.core.readNode({ name: nodeName }), admin.core.readNode({ name: otherNodeName })]);
      expect(toleratesNode(created, node)).toBe(true);
      expect(toleratesNode(created, other)).toBe(true);
      expect(await selectedNodes(created)).toEqual([nodeName]); // never the other pool's node
    });

    it("a pod without the toleration does not tolerate the node, nor do the operator's pods while it is not ready", async () => {
      const node = await admin.core.readNode({ name: nodeName });
      const main = await admin.core.createNamespacedPod({ namespace: ns, body: buildMainPod(hinted()) });
      expect(toleratesNode(main, created)).toBe(false); // not-ready:NoSchedule: their not-ready toleration is NoExecute only
      const plain = await admin.core.createNamespacedPod({
        namespace: ns,
        body: { metadata: { name: "plain" }, spec: { containers: [{ name: "c", image: "busybox" }] } },
      });
      expect(toleratesNode(plain, node)).toBe(false);
    });
  });
});

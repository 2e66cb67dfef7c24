/**
 * examples/operator and examples/agent as one small cluster: a control plane with kube-scheduler and
 * kube-controller-manager, a registry, the operator and two agents (two nodes), all in this process.
 * A CocoonSet with `hibernatePolicy: release` is suspended until its seat is released, then woken: kube-scheduler
 * places the wake pod on the node the set was hibernated on, where the agent restores the VM from
 * the snapshot it kept.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, HibernatePolicy, Kind } from "../../src/apis/v1/index.js";
import { createClients, isNotFound, type CocoonClients } from "../../src/k8s/index.js";
import {
  Annotation,
  LifecycleState,
  NODE_ROLE_LABEL,
  PROVIDER_TAINT,
  parseVMRuntime,
  parseVMSpec,
  preferredHostnameAffinity,
  readHibernatedOnNode,
  readKeepSnapshotOnDelete,
  readLifecycleState,
  readRestoreFromHibernate,
} from "../../src/meta/index.js";
import { OCIRegistry, hasHibernateSnapshot, staticCredentials } from "../../src/oci/index.js";
import { startControlPlane, type ControlPlane, type TestRegistry } from "../../src/testing/index.js";
import { runAgent } from "../../examples/agent/agent.js";
import { isVMRunning, readVMMemory, readVMOrigin, vmRuntime } from "../../examples/agent/fake-vm.js";
import { hasLocalSnapshot } from "../../examples/agent/local-snapshots.js";
import { runOperator } from "../../examples/operator/operator.js";
import { controlPlaneBinaries } from "./helpers.js";
import { startTestRegistry } from "./registry-helpers.js";

const NS = "examples";
const SET = "sandbox";
const POD = `${SET}-0`;
const VM = `vk-${NS}-${SET}-0`;
const NODES = ["cocoon-a", "cocoon-b"];

let plane: ControlPlane;
let registryServer: TestRegistry;
let clients: CocoonClients;
let root: string;
const abort = new AbortController();
const running: Promise<void>[] = [];
const log: string[] = [];

/** A registry client of its own for each part, as separate processes would have. */
function registryClient(): OCIRegistry {
  const { host, credentials } = registryServer;
  return new OCIRegistry(host, credentials ? { credentials: staticCredentials({ [host]: credentials }) } : {});
}

/** Polls `probe` every 100 ms until it returns a value; fails after `timeoutMs` naming `what`, with the parts' log. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; log:\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const readPod = (name = POD): Promise<V1Pod | undefined> => clients.core.readNamespacedPod({ namespace: NS, name }).catch(() => undefined);
const runningPod = async (name = POD): Promise<V1Pod | undefined> => {
  const pod = await readPod(name);
  return pod?.status?.phase === "Running" && readLifecycleState(pod) === LifecycleState.Ready ? pod : undefined;
};
const nodeRoot = (node: string): string => join(root, node);
const setSuspend = async (suspend: boolean, name = SET): Promise<void> => {
  const set = await clients.cocoonSets.get({ namespace: NS, name });
  await clients.cocoonSets.patch(set, (copy) => {
    if (copy.spec) copy.spec.suspend = suspend;
  });
};

beforeAll(async () => {
  // The first run on a machine may build kube-scheduler and kube-controller-manager with Go. The agents
  // keep their nodes with keepNode; the node lifecycle controller lifts the not-ready taint (it looks every second).
  plane = await startControlPlane({
    binaries: controlPlaneBinaries(),
    scheduler: true,
    controllerManager: true,
    extraControllerManagerFlags: ["--node-monitor-period=1s"],
    stopTimeoutMs: 5_000,
  });
  registryServer = await startTestRegistry({ auth: "token" });
  clients = createClients(plane.kubeConfig);
  root = await mkdtemp(join(tmpdir(), "cocoon-examples-"));
  await clients.core.createNamespace({ body: { metadata: { name: NS } } });
  // A fresh CRD answers 429 "storage is (re)initializing" for a moment: start the parts once it serves.
  await until("the CocoonSet API to serve", () =>
    clients.cocoonSets.list({ namespace: NS }).then(
      () => true,
      () => undefined,
    ),
  );
  const signal = abort.signal;
  const part = (name: string) => (line: string) => log.push(`[${name}] ${line}`);
  running.push(runOperator({ clients, registry: registryClient(), namespace: NS, signal, log: part("operator") }));
  for (const [i, nodeName] of NODES.entries()) {
    const options = { clients, registry: registryClient(), nodeName, nodeIP: `10.0.0.${String(i + 1)}`, root: nodeRoot(nodeName) };
    running.push(runAgent({ ...options, signal, log: part("agent") }));
  }
  await until("two Ready nodes without the not-ready taint", async () => {
    const { items } = await clients.core.listNode();
    const ready = items.filter((n) => !n.spec?.taints?.some((t) => t.key === "node.kubernetes.io/not-ready"));
    return ready.length === NODES.length ? ready : undefined;
  });
}, 15 * 60_000);

afterAll(async () => {
  abort.abort();
  await Promise.allSettled(running);
  clients?.close();
  await Promise.allSettled([plane?.stop(), registryServer?.stop()]);
  if (root) await rm(root, { recursive: true, force: true });
});

describe("examples/operator and examples/agent as one cluster", () => {
  let node = "";
  let memory: Buffer;

  it("each agent registers its node with the provider taint and the cocoon-vm role, the not-ready taint lifted", async () => {
    const nodes = await Promise.all(NODES.map((name) => clients.core.readNode({ name })));
    expect(nodes.map((n) => n.spec?.taints)).toEqual([[PROVIDER_TAINT], [PROVIDER_TAINT]]);
    expect(nodes.map((n) => n.metadata?.labels?.[NODE_ROLE_LABEL])).toEqual(["", ""]);
    expect(nodes.map((n) => n.status?.conditions?.find((c) => c.type === "Ready")?.status)).toEqual(["True", "True"]);
  });

  it("runs a CocoonSet's main agent on a node the scheduler picked", async () => {
    await clients.cocoonSets.create({
      apiVersion: API_VERSION,
      kind: Kind.CocoonSet,
      metadata: { name: SET, namespace: NS },
      spec: { agent: { image: "ghcr.io/cocoonstack/ubuntu:24.04" }, hibernatePolicy: HibernatePolicy.Release },
    });
    const pod = await until("a running main pod", () => runningPod());
    node = pod.spec?.nodeName ?? "";
    expect(NODES).toContain(node);
    expect(await readVMOrigin(nodeRoot(node), VM)).toBe("boot");
    memory = await readVMMemory(nodeRoot(node), VM);
    expect(memory.length).toBe(64 * 1024);
  });

  it("suspended, it releases the seat once :hibernate is in the registry, and the node keeps its copy", async () => {
    await setSuspend(true);
    await until("the main pod to be gone", async () =>
      clients.core.readNamespacedPod({ namespace: NS, name: POD }).then(
        () => undefined,
        (err: unknown) => (isNotFound(err) ? true : undefined),
      ),
    );
    expect(await hasHibernateSnapshot(registryClient(), VM)).toBe(true);
    expect(await hasLocalSnapshot(nodeRoot(node), VM)).toBe(true);
    expect(await isVMRunning(nodeRoot(node), VM)).toBe(false);
    expect(readHibernatedOnNode(await clients.cocoonSets.get({ namespace: NS, name: SET }))).toBe(node);
    expect(log).toContain(`[operator] released the seat of ${VM} on ${node}: flagged=true deletion=deleted`);
    expect(log).toContain(`[agent] [${node}] deleted ${POD} (deleted); kept the node's snapshot of ${VM}`);
  });

  it("woken, the pod lands on the hinted node and restores from the kept copy; hint and snapshot are cleared", async () => {
    await setSuspend(false);
    const pod = await until("a running woken pod", () => runningPod());
    expect(pod.spec?.nodeName).toBe(node);
    expect(readRestoreFromHibernate(pod)).toBe(true);
    expect(readKeepSnapshotOnDelete(pod)).toBe(false);
    expect(pod.spec?.affinity).toEqual(preferredHostnameAffinity(node));
    expect(await readVMOrigin(nodeRoot(node), VM)).toBe("kept");
    expect(parseVMRuntime(pod)).toEqual(vmRuntime(VM));
    expect(pod.status?.podIP).toBe(vmRuntime(VM).ip);
    expect((await readVMMemory(nodeRoot(node), VM)).equals(memory)).toBe(true);
    const other = NODES.find((n) => n !== node) ?? "";
    expect(await isVMRunning(nodeRoot(other), VM)).toBe(false);
    const set = await until("the hint to be cleared", async () => {
      const read = await clients.cocoonSets.get({ namespace: NS, name: SET });
      return readHibernatedOnNode(read) === "" ? read : undefined;
    });
    expect(set.metadata.annotations?.[Annotation.HibernatedOnNode]).toBeUndefined();
    expect(await hasHibernateSnapshot(registryClient(), VM)).toBe(false);
    expect(await hasLocalSnapshot(nodeRoot(node), VM)).toBe(false);
    expect(log.map((line) => line.replace(/sha256:[0-9a-f]{64}/, "sha256:<digest>"))).toEqual([
      `[operator] created ${POD}`,
      `[agent] [${node}] booted ${VM}`,
      `[agent] [${node}] hibernated ${VM}: pushed sha256:<digest>, kept a copy on the node`,
      `[operator] released the seat of ${VM} on ${node}: flagged=true deletion=deleted`,
      `[agent] [${node}] deleted ${POD} (deleted); kept the node's snapshot of ${VM}`,
      `[operator] created ${POD}`,
      `[agent] [${node}] restored ${VM} from the node's kept copy`,
      `[operator] woke ${VM} on ${node} (hinted ${node}); cleared the hint and ${VM}:hibernate`,
    ]);
  });
});

describe("a retain-policy set with a sub-agent and a toolbox", () => {
  const TEAM = "team";
  const PODS = [`${TEAM}-0`, `${TEAM}-1`, `${TEAM}-db`];
  const VMS = [`vk-${NS}-${TEAM}-0`, `vk-${NS}-${TEAM}-1`, `vk-${NS}-${TEAM}-db`];
  let first: V1Pod[] = [];
  const memories: Buffer[] = [];
  const allRunning = () =>
    until(`${PODS.join(", ")} running`, async () => {
      const pods = await Promise.all(PODS.map((name) => runningPod(name)));
      return pods.every((pod) => pod !== undefined) ? pods.filter((pod) => pod !== undefined) : undefined;
    });
  const rootOf = (pod: V1Pod | undefined): string => nodeRoot(pod?.spec?.nodeName ?? "");

  it("runs the main agent, the sub-agent bound to the main agent's node, and the toolbox", async () => {
    await clients.cocoonSets.create({
      apiVersion: API_VERSION,
      kind: Kind.CocoonSet,
      metadata: { name: TEAM, namespace: NS },
      spec: {
        agent: { image: "ghcr.io/cocoonstack/ubuntu:24.04", replicas: 1 },
        toolboxes: [{ name: "db", image: "ghcr.io/cocoonstack/postgres:17" }],
      },
    });
    first = await allRunning();
    const [main, sub, toolbox] = first;
    expect(sub?.spec?.nodeName).toBe(main?.spec?.nodeName);
    expect(parseVMSpec(sub ?? {}).forkFrom).toBe(VMS[0]);
    expect(first.map((pod) => parseVMSpec(pod).vmName)).toEqual(VMS);
    expect(NODES).toContain(toolbox?.spec?.nodeName);
    for (const [i, pod] of first.entries()) {
      expect(await readVMOrigin(rootOf(pod), VMS[i] ?? "")).toBe("boot");
      memories.push(await readVMMemory(rootOf(pod), VMS[i] ?? ""));
    }
  });

  it("suspended and resumed, every VM hibernates and restores in place from its node's copy", async () => {
    await setSuspend(true, TEAM);
    await until("every VM hibernated", async () => {
      const pods = await Promise.all(PODS.map((name) => readPod(name)));
      return pods.every((pod) => pod && readLifecycleState(pod) === LifecycleState.Hibernated) ? pods : undefined;
    });
    const hibernated = await Promise.all(PODS.map((name) => readPod(name)));
    expect(hibernated.map((pod) => [parseVMRuntime(pod ?? {}).vmID, pod?.status?.phase, pod?.status?.podIP])).toEqual([
      ["", "Pending", undefined],
      ["", "Pending", undefined],
      ["", "Pending", undefined],
    ]);
    for (const [i, pod] of first.entries()) {
      expect(await hasHibernateSnapshot(registryClient(), VMS[i] ?? "")).toBe(true);
      expect(await hasLocalSnapshot(rootOf(pod), VMS[i] ?? "")).toBe(true);
      expect(await isVMRunning(rootOf(pod), VMS[i] ?? "")).toBe(false);
    }
    await setSuspend(false, TEAM);
    const woken = await allRunning();
    expect(woken.map((pod) => pod.metadata?.uid)).toEqual(first.map((pod) => pod.metadata?.uid)); // the seats were kept
    for (const [i, pod] of woken.entries()) {
      expect(await readVMOrigin(rootOf(pod), VMS[i] ?? "")).toBe("kept");
      expect((await readVMMemory(rootOf(pod), VMS[i] ?? "")).equals(memories[i] ?? Buffer.alloc(0))).toBe(true);
    }
  });

  it("a changed agent spec rebuilds the agents' pods (the drift checks), not the toolbox's", async () => {
    const set = await clients.cocoonSets.get({ namespace: NS, name: TEAM });
    await clients.cocoonSets.patch(set, (copy) => {
      if (copy.spec) copy.spec.agent.resources = { limits: { cpu: "2", memory: "2Gi" } };
    });
    const rebuilt = await until("the agents' pods rebuilt and running", async () => {
      const pods = await allRunning();
      return pods[0]?.metadata?.uid !== first[0]?.metadata?.uid && pods[1]?.metadata?.uid !== first[1]?.metadata?.uid ? pods : undefined;
    });
    expect(rebuilt[2]?.metadata?.uid).toBe(first[2]?.metadata?.uid);
    expect(rebuilt.map((pod) => pod.spec?.containers[0]?.resources?.limits)).toEqual([
      { cpu: "2", memory: "2Gi" },
      { cpu: "2", memory: "2Gi" },
      undefined,
    ]);
    expect(rebuilt[1]?.spec?.nodeName).toBe(rebuilt[0]?.spec?.nodeName);
  });
});

/**
 * examples/operator and examples/kubelet as one small cluster: a control plane with kube-scheduler and
 * kube-controller-manager (Node and RBAC authorizers, an audit log), a registry, the operator and two
 * virtual kubelets (two nodes), all in this process, each part under a service account of its own bound to its
 * ClusterRole of rbac/. The virtual kubelets keep their nodes with keepNode, and the real node lifecycle
 * controller lifts their not-ready taints. A CocoonSet with `hibernatePolicy: release` is suspended
 * until its seat is released, then woken: kube-scheduler places the wake pod on the node the set was
 * hibernated on, where the virtual kubelet restores the VM from the snapshot it kept. Last, the audit log shows
 * that no part was refused anything and that every verb of every rule was used.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_VERSION,
  GROUP,
  HibernatePolicy,
  Kind,
  Plural,
  cocoonKubeletClusterRole,
  cocoonOperatorClusterRole,
  type ClusterRole,
} from "../../src/apis/v1/index.js";
import { createClients, isConflict, isNotFound, kubeConfigRequester, type CocoonClients } from "../../src/k8s/index.js";
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
import {
  resourceRequestOf,
  ruleAllows,
  serviceAccountUser,
  startControlPlane,
  type AuditEvent,
  type ControlPlane,
  type TestRegistry,
} from "../../src/testing/index.js";
import { runKubelet } from "../../examples/kubelet/kubelet.js";
import { isVMRunning, readVMMemory, readVMOrigin, vmRuntime } from "../../examples/kubelet/fake-vm.js";
import { hasLocalSnapshot } from "../../examples/kubelet/local-snapshots.js";
import { runOperator } from "../../examples/operator/operator.js";
import { controlPlaneBinaries } from "./helpers.js";
import { allowed, bindClusterRole, grantName, grantRule, grantsOf, serviceAccountGroups, type Grant } from "./rbac-helpers.js";
import { startTestRegistry } from "./registry-helpers.js";

const NS = "examples";
const SET = "sandbox";
const POD = `${SET}-0`;
const VM = `vk-${NS}-${SET}-0`;
const NODES = ["cocoon-a", "cocoon-b"];
/** The parts' service accounts: the operator's, and one per virtual kubelet. */
const SYSTEM = "cocoon-system";
const OPERATOR_SA = "cocoon-operator";
const kubeletSA = (node: string): string => `cocoon-kubelet-${node}`;
const OPERATOR_USER = serviceAccountUser(SYSTEM, OPERATOR_SA);
const KUBELET_USERS = NODES.map((node) => serviceAccountUser(SYSTEM, kubeletSA(node)));

let plane: ControlPlane;
let registryServer: TestRegistry;
let clients: CocoonClients;
let root: string;
const abort = new AbortController();
const running: Promise<void>[] = [];
const log: string[] = [];
/** The parts' clients, each made from its service account's kubeconfig. */
const partClients: { close(): void }[] = [];
/** The running virtual kubelet of each node, to restart one. */
const kubelets = new Map<string, { abort: AbortController; done: Promise<void> }>();
let startKubelet: (node: string) => Promise<void>;

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
  // The first run on a machine may build kube-scheduler and kube-controller-manager with Go. The virtual kubelets
  // keep their nodes with keepNode; the node lifecycle controller lifts the not-ready taint (it looks every second).
  plane = await startControlPlane({
    binaries: controlPlaneBinaries(),
    scheduler: true,
    controllerManager: true,
    extraControllerManagerFlags: ["--node-monitor-period=1s"],
    auditLog: true,
    stopTimeoutMs: 5_000,
  });
  registryServer = await startTestRegistry({ auth: "token" });
  clients = createClients(plane.kubeConfig);
  root = await mkdtemp(join(tmpdir(), "cocoon-examples-"));
  await clients.core.createNamespace({ body: { metadata: { name: NS } } });
  await clients.core.createNamespace({ body: { metadata: { name: SYSTEM } } });
  const operatorKubeConfig = await plane.kubeConfigForServiceAccount(SYSTEM, OPERATOR_SA);
  const kubeletKubeConfigs = await Promise.all(NODES.map((node) => plane.kubeConfigForServiceAccount(SYSTEM, kubeletSA(node))));
  await bindClusterRole(plane.kubeConfig, cocoonOperatorClusterRole, [{ kind: "ServiceAccount", name: OPERATOR_SA, namespace: SYSTEM }]);
  await bindClusterRole(
    plane.kubeConfig,
    cocoonKubeletClusterRole,
    NODES.map((node) => ({ kind: "ServiceAccount", name: kubeletSA(node), namespace: SYSTEM })),
  );
  // The RBAC authorizer reads bindings from a cache: start the parts once it grants them their first request.
  const groups = serviceAccountGroups(SYSTEM);
  await until("the roles to be in force", async () => {
    const sets = { apiGroup: GROUP, resource: Plural.CocoonSet, subresource: "", verb: "list" };
    const nodes = { apiGroup: "", resource: "nodes", subresource: "", verb: "create" };
    const verdicts = await Promise.all([
      allowed(plane.kubeConfig, OPERATOR_USER, groups, sets, NS),
      ...KUBELET_USERS.map((user) => allowed(plane.kubeConfig, user, groups, nodes)),
    ]);
    return verdicts.every(Boolean) || undefined;
  });
  // A fresh CRD answers 429 "storage is (re)initializing" for a moment: start the parts once it serves.
  await until("the CocoonSet API to serve", () =>
    clients.cocoonSets.list({ namespace: NS }).then(
      () => true,
      () => undefined,
    ),
  );
  const signal = abort.signal;
  const part = (name: string) => (line: string) => log.push(`[${name}] ${line}`);
  const operatorClients = createClients(operatorKubeConfig);
  partClients.push(operatorClients);
  running.push(runOperator({ clients: operatorClients, registry: registryClient(), namespace: NS, signal, log: part("operator") }));
  startKubelet = async (nodeName) => {
    const i = NODES.indexOf(nodeName);
    await kubelets.get(nodeName)?.done;
    // The example virtual kubelet runs without client-node: a KubeRequester (./kubelet), here built from its service account's KubeConfig.
    const kubeletClients = kubeConfigRequester(kubeletKubeConfigs[i] ?? plane.kubeConfig);
    partClients.push(kubeletClients);
    const kubeletAbort = new AbortController();
    const options = {
      clients: kubeletClients,
      registry: registryClient(),
      nodeName,
      nodeIP: `10.0.0.${String(i + 1)}`,
      root: nodeRoot(nodeName),
    };
    const done = runKubelet({ ...options, signal: AbortSignal.any([signal, kubeletAbort.signal]), log: part("kubelet") });
    kubelets.set(nodeName, { abort: kubeletAbort, done });
    running.push(done);
  };
  for (const nodeName of NODES) await startKubelet(nodeName);
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
  for (const part of partClients) part.close();
  await Promise.allSettled([plane?.stop(), registryServer?.stop()]);
  if (root) await rm(root, { recursive: true, force: true });
});

describe("examples/operator and examples/kubelet as one cluster", () => {
  let node = "";
  let memory: Buffer;

  it("each virtual kubelet registers its node with the provider taint and the cocoon-vm role, the not-ready taint lifted", async () => {
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
    expect(log).toContain(`[kubelet] [${node}] deleted ${POD} (deleted); kept the node's snapshot of ${VM}`);
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
      `[kubelet] [${node}] booted ${VM}`,
      `[kubelet] [${node}] hibernated ${VM}: pushed sha256:<digest>, kept a copy on the node`,
      `[operator] released the seat of ${VM} on ${node}: flagged=true deletion=deleted`,
      `[kubelet] [${node}] deleted ${POD} (deleted); kept the node's snapshot of ${VM}`,
      `[operator] created ${POD}`,
      `[kubelet] [${node}] restored ${VM} from the node's kept copy`,
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

describe("each part under its own service account and ClusterRole (rbac/)", () => {
  const ROLES: readonly { role: ClusterRole; users: readonly string[] }[] = [
    { role: cocoonOperatorClusterRole, users: [OPERATOR_USER] },
    { role: cocoonKubeletClusterRole, users: KUBELET_USERS },
  ];
  /** Grants the examples do not send yet: the node keeper (examples/kubelet/node.ts) renews a Lease in kube-node-lease. */
  const partsEvents = async (): Promise<AuditEvent[]> => {
    const users = new Set([OPERATOR_USER, ...KUBELET_USERS]);
    return (await plane.auditEvents()).filter((event) => users.has(event.user.username));
  };

  it("a restarted virtual kubelet adopts its node: the create is refused as a duplicate, the node is read back and its taint put back", async () => {
    const node = NODES[0] ?? "";
    kubelets.get(node)?.abort.abort();
    await kubelets.get(node)?.done;
    // Meanwhile an admin took the provider taint off (read, modify, replace, again on a conflict with the
    // node lifecycle controller's writes); the virtual kubelet's adoption puts it back.
    for (let attempt = 1; ; attempt++) {
      const stored = await clients.core.readNode({ name: node });
      stored.spec = { ...stored.spec, taints: (stored.spec?.taints ?? []).filter((t) => t.key !== PROVIDER_TAINT.key) };
      const replaced = await clients.core.replaceNode({ name: node, body: stored }).catch((err: unknown) => {
        if (isConflict(err) && attempt < 5) return undefined;
        throw err;
      });
      if (replaced !== undefined) break;
    }
    await startKubelet(node);
    const nodeEvents = await until("the restarted virtual kubelet to adopt its node", async () => {
      const events = (await partsEvents()).filter((e) => e.user.username === KUBELET_USERS[0] && e.objectRef?.resource === "nodes");
      return events.some((e) => e.verb === "update" && e.objectRef?.subresource === undefined) ? events : undefined;
    });
    expect(nodeEvents.filter((e) => e.verb === "create").map((e) => e.responseStatus?.code)).toEqual([201, 409]);
    const adopted = await clients.core.readNode({ name: node });
    expect(adopted.spec?.taints?.filter((t) => t.key === PROVIDER_TAINT.key)).toEqual([{ ...PROVIDER_TAINT }]);
  });

  it("each virtual kubelet renews its node's Lease (a PUT every 10 s)", async () => {
    for (const user of KUBELET_USERS) {
      await until(`a Lease renewal by ${user}`, async () => {
        const events = await partsEvents();
        return events.some((e) => e.user.username === user && e.objectRef?.resource === "leases" && e.verb === "update") ? true : undefined;
      });
    }
  });

  it("no request of any part was forbidden", async () => {
    const events = await partsEvents();
    expect(events.length).toBeGreaterThan(50);
    const forbidden = events.filter((e) => e.responseStatus?.code === 403 || e.annotations?.["authorization.k8s.io/decision"] !== "allow");
    expect(forbidden.map((e) => `${e.user.username} ${e.verb} ${e.requestURI} ${String(e.responseStatus?.code)}`)).toEqual([]);
  });

  it.each(ROLES.map(({ role, users }) => [role.metadata.name, role, users] as const))(
    "%s: every request is a resource request allowed by its ClusterRole, by exactly one rule",
    async (name, role, users) => {
      const events = (await partsEvents()).filter((e) => users.includes(e.user.username));
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        const request = resourceRequestOf(event);
        const what = `${event.user.username} ${event.verb} ${event.requestURI}`;
        expect(request, `${what} is not a resource request`).toBeDefined();
        if (request === undefined) continue;
        expect(role.rules.filter((rule) => ruleAllows(rule, request)).length, `rules of ${name} that allow ${what}`).toBe(1);
        expect(event.annotations?.["authorization.k8s.io/reason"], what).toContain(`ClusterRole "${name}"`);
      }
    },
  );

  it.each(ROLES.map(({ role, users }) => [role.metadata.name, role, users] as const))(
    "%s: every verb of every rule was used (removing one fails this)",
    async (_name, role, users) => {
      const requests = (await partsEvents())
        .filter((e) => users.includes(e.user.username) && e.annotations?.["authorization.k8s.io/decision"] === "allow")
        .map(resourceRequestOf)
        .filter((r) => r !== undefined);
      const unused = role.rules
        .flatMap(grantsOf)
        .filter((grant) => !requests.some((r) => ruleAllows(grantRule(grant), r)))
        .map(grantName);
      expect(unused).toEqual([]);
    },
  );

  it.each(ROLES.flatMap(({ role }) => role.rules.map((rule, i) => [role.metadata.name, i, role, rule] as const)))(
    "%s without rule %i: the authorizer refuses what only that rule grants, and still allows the rest",
    async (name, i, role, removed) => {
      const user = `rbac-probe-${name}-${String(i)}`;
      const without: ClusterRole = { ...role, metadata: { name: user }, rules: role.rules.filter((rule) => rule !== removed) };
      await bindClusterRole(plane.kubeConfig, without, [{ kind: "User", name: user, apiGroup: "rbac.authorization.k8s.io" }]);
      const ask = (grant: Grant) => allowed(plane.kubeConfig, user, ["system:authenticated"], grant, NS);
      const [kept] = without.rules.flatMap(grantsOf);
      if (kept) await until(`${user}'s binding to be in force`, async () => (await ask(kept)) || undefined);
      const verdicts = await Promise.all(role.rules.flatMap(grantsOf).map(async (grant) => [grantName(grant), await ask(grant)] as const));
      const refused = new Set(grantsOf(removed).map(grantName));
      expect(Object.fromEntries(verdicts)).toEqual(Object.fromEntries(verdicts.map(([grant]) => [grant, !refused.has(grant)])));
    },
  );
});

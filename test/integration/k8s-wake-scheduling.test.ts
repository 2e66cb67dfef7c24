/**
 * The wake's placement, decided by a real kube-scheduler: the pods come from `./meta`'s builders
 * and the nodes from `registerNode`, on a control plane of this file's own (the shared one has no
 * scheduler). Each case has its own node pool, so the cases never see each other's nodes or pods.
 *
 * The two nodes of a case differ so that the default scorers (least allocated, balanced
 * allocation) favour the big one: the hinted node has 2 CPUs and 4 GiB, the big one 64 and 256 GiB,
 * and the pod asks for 1 CPU and 2 GiB.
 */
import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Annotation, buildMainPod, buildWakePod, HOSTNAME_LABEL, type CocoonSetLike } from "../../src/meta/index.js";
import { registerNode, startControlPlane, type ControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries, expectExitOnUnknownFlag } from "./helpers.js";

const NS = "wake";
const SMALL = { cpu: "2", memory: "4Gi" };
const BIG = { cpu: "64", memory: "256Gi" };

let plane: ControlPlane;
let core: CoreV1Api;

beforeAll(async () => {
  // The first run on a machine may build kube-scheduler with Go (about half a minute after kube-apiserver, more from cold).
  plane = await startControlPlane({ binaries: controlPlaneBinaries(), scheduler: true, stopTimeoutMs: 5_000 });
  core = plane.kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NS } } });
}, 15 * 60_000);

afterAll(() => plane?.stop());

/** A CocoonSet in `pool` whose agent asks for 1 CPU, 2 GiB and a 10 GiB disk, hibernated on `hint` if given. */
function cocoonSet(name: string, pool: string | undefined, hint?: string): CocoonSetLike {
  return {
    metadata: {
      name,
      namespace: NS,
      uid: randomUUID(),
      generation: 1,
      ...(hint !== undefined && { annotations: { [Annotation.HibernatedOnNode]: hint } }),
    },
    spec: {
      ...(pool !== undefined && { nodePool: pool }),
      agent: { image: "ghcr.io/cocoonstack/ubuntu:24.04", storage: "10Gi", resources: { requests: { cpu: "1", memory: "2Gi" } } },
    },
  };
}

/** Registers the small hinted node and the big one in `pool`, and waits until the scheduler has seen both. */
async function hintedAndBig(pool: string, hinted: { unschedulable?: boolean } = {}): Promise<{ hinted: string; big: string }> {
  const names = { hinted: `${pool}-hinted`, big: `${pool}-big` };
  await registerNode(plane, { name: names.hinted, pool, capacity: SMALL, ...hinted });
  await registerNode(plane, { name: names.big, pool, capacity: BIG });
  await schedulerHasSeen(names.big);
  return names;
}

/**
 * Node events reach the scheduler in the order they were written, but on a watch of their own, so a
 * pod created right after its nodes could be scheduled before the last of them is known. A probe pod
 * that only `node` admits is bound once the scheduler knows `node`, and so every node written before it.
 */
async function schedulerHasSeen(node: string): Promise<void> {
  const name = `probe-${node}`;
  await core.createNamespacedPod({
    namespace: NS,
    body: {
      metadata: { name },
      spec: {
        containers: [{ name: "probe", image: "busybox" }],
        nodeSelector: { [HOSTNAME_LABEL]: node },
        tolerations: [{ operator: "Exists" }],
      },
    },
  });
  expect(await scheduledNode(name)).toBe(node);
  await core.deleteNamespacedPod({ name, namespace: NS, gracePeriodSeconds: 0 });
}

/** Polls until the pod is bound (within 30 s) and returns its `spec.nodeName`. */
async function scheduledNode(name: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pod = await core.readNamespacedPod({ name, namespace: NS });
    if (pod.spec?.nodeName) return pod.spec.nodeName;
    if (Date.now() > deadline) {
      const why = pod.status?.conditions?.find((c) => c.type === "PodScheduled")?.message ?? "no PodScheduled condition";
      throw new Error(`pod ${name} was not scheduled within 30 s: ${why}\n${plane.logTail(20)}`);
    }
    await sleep(100);
  }
}

/** The command names of this process's children, sorted (Linux's `/proc/<pid>/task/<tid>/children`). */
function childCommands(): string[] {
  const task = `/proc/${process.pid}/task`;
  const pids = readdirSync(task).flatMap((tid) => readFileSync(`${task}/${tid}/children`, "utf8").split(" ").filter(Boolean));
  return pids.map((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim()).sort();
}

async function place(pod: V1Pod): Promise<string> {
  await core.createNamespacedPod({ namespace: NS, body: pod });
  return scheduledNode(pod.metadata!.name!);
}

describe("kube-scheduler places the operator's pods", () => {
  it("the main pod of a set with no pool lands on a node registered with the defaults", async () => {
    await registerNode(plane, { name: "cocoon-default" });
    await schedulerHasSeen("cocoon-default");
    expect(await place(buildMainPod(cocoonSet("plain", undefined)))).toBe("cocoon-default");
  });

  it("without the hint's affinity, the wake pod lands on the big node: the scorers prefer it", async () => {
    const { big } = await hintedAndBig("no-affinity");
    const pod = buildWakePod(cocoonSet("no-affinity", "no-affinity", "no-affinity-hinted"));
    delete pod.spec.affinity;
    expect(await place(pod)).toBe(big);
  });

  it("the wake pod's weight-100 preference wins: it lands on the hinted node, though the big one scores higher otherwise", async () => {
    const { hinted } = await hintedAndBig("preferred");
    const pod = buildWakePod(cocoonSet("preferred", "preferred", hinted));
    expect(pod.spec.affinity).toEqual({
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, preference: { matchExpressions: [{ key: HOSTNAME_LABEL, operator: "In", values: [hinted] }] } },
        ],
      },
    });
    expect(await place(pod)).toBe(hinted);
  });

  it("the preference loses to a cordon: the wake pod lands on the big node", async () => {
    const { hinted, big } = await hintedAndBig("cordoned", { unschedulable: true });
    expect(await place(buildWakePod(cocoonSet("cordoned", "cordoned", hinted)))).toBe(big);
  });

  it("the preference loses to a full node: with its seat taken, the wake pod lands on the big node", async () => {
    const { hinted, big } = await hintedAndBig("full");
    // Another set pinned to the hinted node (a required affinity) takes 1.5 of its 2 CPUs.
    const occupant = cocoonSet("occupant", "full");
    occupant.spec = {
      ...occupant.spec!,
      nodeName: hinted,
      agent: { image: "ghcr.io/cocoonstack/ubuntu:24.04", resources: { requests: { cpu: "1500m" } } },
    };
    expect(await place(buildMainPod(occupant))).toBe(hinted);
    expect(await place(buildWakePod(cocoonSet("full", "full", hinted)))).toBe(big);
  });

  it("a kube-scheduler that does not start fails the start with its log, and takes the rest down", async () => {
    const before = childCommands();
    expect(before).toEqual(expect.arrayContaining(["etcd", "kube-apiserver", "kube-scheduler"])); // this file's plane: the check sees children
    const start = startControlPlane({
      binaries: controlPlaneBinaries(),
      scheduler: true,
      installCRDs: false,
      extraSchedulerFlags: ["--no-such-flag"],
    });
    await expectExitOnUnknownFlag(start, "kube-scheduler", "--no-such-flag");
    expect(childCommands()).toEqual(before);
  });

  it("stop() ends kube-scheduler with kube-apiserver and etcd, and removes the folder", async () => {
    const { etcd, kubeApiserver, kubeScheduler } = plane.pids;
    expect(kubeScheduler).toBeGreaterThan(0);
    const alive = (pid: number | undefined): boolean => pid !== undefined && existsSync(`/proc/${pid}`);
    expect([alive(kubeScheduler), alive(kubeApiserver), alive(etcd), existsSync(plane.dir)]).toEqual([true, true, true, true]);
    await plane.stop();
    expect([alive(kubeScheduler), alive(kubeApiserver), alive(etcd), existsSync(plane.dir)]).toEqual([false, false, false, false]);
  });
});

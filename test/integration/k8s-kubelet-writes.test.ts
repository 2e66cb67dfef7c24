// What the virtual kubelet writes on a pod, on the real API server: clearing the VM runtime, finishing the
// deletion once the VM is gone, and the pod status of each VM state; every request counted on the wire.
import { PatchStrategy, setHeaderOptions, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PodDeletion,
  finishPodDeletion,
  isNotFound,
  patchClearVMRuntime,
  patchVMRuntime,
  writePodStatus,
  type CocoonClients,
} from "../../src/k8s/index.js";
import {
  Annotation,
  LifecycleState,
  VMState,
  isContainerRunning,
  isPodReady,
  podStatusForVM,
  type KubeletPodStatus,
  type VMObservation,
} from "../../src/meta/index.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";

let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-kubelet"));
});

afterAll(() => closeProxiedSuite({ proxy, viaProxy, admin }));

function newPod(options: { annotations?: Record<string, string>; nodeName?: string; name?: string } = {}): Promise<V1Pod> {
  return admin.core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name: options.name ?? `agent-${++counter}`, annotations: options.annotations ?? {} },
      spec: {
        containers: [{ name: "agent", image: "ghcr.io/cocoonstack/placeholder:latest" }],
        ...(options.nodeName && { nodeName: options.nodeName }),
      },
    },
  });
}

const readPod = (name: string) => admin.core.readNamespacedPod({ name, namespace: ns });
const wire = () => proxy.requests.map((r) => [r.method, r.path, r.contentType, r.body, r.status]);
const podPath = (pod: V1Pod) => `/api/v1/namespaces/${ns}/pods/${pod.metadata!.name}`;

describe("patchClearVMRuntime on a real API server", () => {
  it("deletes the ID and IP with one patch, keeps the rest, and sends nothing once clear", async () => {
    const pod = await newPod({
      annotations: { [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7", [Annotation.VNCPort]: "5900", "example.com/keep": "x" },
    });
    proxy.reset();
    const cleared = await patchClearVMRuntime(viaProxy, pod);
    expect(wire()).toEqual([
      [
        "PATCH",
        podPath(pod),
        "application/merge-patch+json",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/id":null,"vm.cocoonstack.io/ip":null}}}',
        200,
      ],
    ]);
    expect((await readPod(pod.metadata!.name!)).metadata?.annotations).toEqual({ [Annotation.VNCPort]: "5900", "example.com/keep": "x" });
    proxy.reset();
    expect(await patchClearVMRuntime(viaProxy, cleared)).toBe(cleared);
    expect(proxy.requests).toEqual([]);
  });
});

describe("patchVMRuntime on a real API server", () => {
  it("writes the runtime with one patch, then only what changed, then nothing", async () => {
    const pod = await newPod({ annotations: { "example.com/keep": "x" } });
    proxy.reset();
    const live = await patchVMRuntime(viaProxy, pod, { vmID: "vm-1", ip: "10.88.0.7", vncPort: 5900 });
    expect(wire()).toEqual([
      [
        "PATCH",
        podPath(pod),
        "application/merge-patch+json",
        '{"metadata":{"annotations":{"vm.cocoonstack.io/id":"vm-1","vm.cocoonstack.io/ip":"10.88.0.7","vm.cocoonstack.io/vnc-port":"5900"}}}',
        200,
      ],
    ]);
    proxy.reset();
    const moved = await patchVMRuntime(viaProxy, live, { vmID: "vm-1", ip: "10.88.0.8", vncPort: 5900 });
    expect(wire()).toEqual([
      ["PATCH", podPath(pod), "application/merge-patch+json", '{"metadata":{"annotations":{"vm.cocoonstack.io/ip":"10.88.0.8"}}}', 200],
    ]);
    expect((await readPod(pod.metadata!.name!)).metadata?.annotations).toEqual({
      [Annotation.VMID]: "vm-1",
      [Annotation.IP]: "10.88.0.8",
      [Annotation.VNCPort]: "5900",
      "example.com/keep": "x",
    });
    proxy.reset();
    expect(await patchVMRuntime(viaProxy, moved, { vmID: "vm-1", ip: "10.88.0.8" })).toBe(moved);
    expect(proxy.requests).toEqual([]);
  });
});

describe("finishPodDeletion on a real API server", () => {
  const deleteBody = (pod: V1Pod) => `{"gracePeriodSeconds":0,"preconditions":{"uid":"${pod.metadata!.uid}"}}`;

  it("finishes a graceful deletion at once: one DELETE, grace 0 and the uid in the body", async () => {
    const pod = await newPod({ nodeName: "cocoon-node" });
    await admin.core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace: ns }); // the operator's graceful delete
    const terminating = await readPod(pod.metadata!.name!);
    expect(terminating.metadata?.deletionTimestamp).toBeDefined(); // no kubelet: it waits for the virtual kubelet
    proxy.reset();
    expect(await finishPodDeletion(viaProxy, terminating)).toBe(PodDeletion.Deleted);
    expect(wire()).toEqual([["DELETE", podPath(pod), "application/json", deleteBody(pod), 200]]);
    await expect(readPod(pod.metadata!.name!)).rejects.toSatisfy(isNotFound);
  });

  it("why the body: a gracePeriodSeconds query parameter beside a body is ignored by the server", async () => {
    const pod = await newPod({ nodeName: "cocoon-node" });
    const name = pod.metadata!.name!;
    await admin.core.deleteNamespacedPod({
      name,
      namespace: ns,
      gracePeriodSeconds: 0,
      body: { preconditions: { uid: pod.metadata!.uid! } },
    });
    const still = await readPod(name);
    expect(still.metadata?.deletionTimestamp).toBeDefined();
    expect(still.metadata?.deletionGracePeriodSeconds).toBe(30); // the pod's own grace, not 0
    expect(await finishPodDeletion(admin, still)).toBe(PodDeletion.Deleted);
  });

  it("never deletes a recreated pod of the same name: uid-mismatch, and the new pod survives", async () => {
    const old = await newPod({ nodeName: "cocoon-node" });
    const name = old.metadata!.name!;
    await admin.core.deleteNamespacedPod({ name, namespace: ns, body: { gracePeriodSeconds: 0 } });
    const recreated = await newPod({ name, nodeName: "cocoon-node" });
    proxy.reset();
    expect(await finishPodDeletion(viaProxy, old)).toBe(PodDeletion.UIDMismatch);
    expect(wire()).toEqual([["DELETE", podPath(old), "application/json", deleteBody(old), 409]]);
    const survivor = await readPod(name);
    expect(survivor.metadata?.uid).toBe(recreated.metadata?.uid);
    expect(survivor.metadata?.deletionTimestamp).toBeUndefined();
  });

  it("counts a pod that is already gone", async () => {
    const pod = await newPod();
    await admin.core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace: ns, body: { gracePeriodSeconds: 0 } });
    proxy.reset();
    expect(await finishPodDeletion(viaProxy, pod)).toBe(PodDeletion.AlreadyGone);
    expect(wire().map(([method, , , , status]) => [method, status])).toEqual([["DELETE", 404]]);
  });
});

describe("writePodStatus on a real API server", () => {
  const at = (minute: number) => new Date(`2026-08-12T10:0${minute}:00Z`);
  const statusPath = (pod: V1Pod) => `${podPath(pod)}/status`;

  /** Builds the status of `vm` from the server's copy, writes it, and returns what the server then holds. */
  async function step(pod: V1Pod, vm: VMObservation, minute: number): Promise<{ status: KubeletPodStatus; served: V1Pod }> {
    const live = await readPod(pod.metadata!.name!);
    const status = podStatusForVM(live, vm, { now: at(minute) });
    proxy.reset();
    await writePodStatus(viaProxy, live, status);
    return { status, served: await readPod(pod.metadata!.name!) };
  }

  it("walks a VM through running, hibernated, woken and deleted; each write one patch of what changed", async () => {
    const pod = await newPod({ annotations: { [Annotation.LifecycleState]: LifecycleState.Ready }, nodeName: "cocoon-node" });
    // The scheduler's condition: another writer's, which every write keeps.
    await admin.core.patchNamespacedPodStatus(
      {
        name: pod.metadata!.name!,
        namespace: ns,
        body: { status: { conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: at(0) }] } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    const scheduled = { type: "PodScheduled", status: "True", lastTransitionTime: "2026-08-12T10:00:00Z" };

    let { served } = await step(pod, { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, 1);
    expect(wire()).toEqual([
      [
        "PATCH",
        statusPath(pod),
        "application/merge-patch+json",
        '{"status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-08-12T10:00:00Z"},' +
          '{"type":"Ready","status":"True","lastTransitionTime":"2026-08-12T10:01:00Z"},{"type":"ContainersReady","status":"True","lastTransitionTime":"2026-08-12T10:01:00Z"},' +
          '{"type":"Initialized","status":"True","lastTransitionTime":"2026-08-12T10:01:00Z"}],"podIP":"10.88.0.7","podIPs":[{"ip":"10.88.0.7"}],' +
          '"startTime":"2026-08-12T10:01:00Z","containerStatuses":[{"name":"agent","state":{"running":{"startedAt":"2026-08-12T10:01:00Z"}},"ready":true}]}}',
        200,
      ],
    ]);
    expect([served.status?.phase, isPodReady(served), isContainerRunning(served), served.status?.podIP]).toEqual([
      "Running",
      true,
      true,
      "10.88.0.7",
    ]);

    // The same VM a minute later: the server holds it already, nothing is sent.
    await step(pod, { state: VMState.Running, ip: "10.88.0.7", probeReady: true }, 2);
    expect(proxy.requests).toEqual([]);

    // Hibernated: Pending, not ready, no IP, no container; the start time stays.
    ({ served } = await step(pod, { state: VMState.Absent }, 3));
    expect(wire().map(([method, path, , body]) => [method, path, JSON.parse(body as string) as unknown])).toEqual([
      [
        "PATCH",
        statusPath(pod),
        {
          status: {
            phase: "Pending",
            conditions: [
              scheduled,
              { type: "Ready", status: "False", lastTransitionTime: "2026-08-12T10:03:00Z" },
              { type: "ContainersReady", status: "False", lastTransitionTime: "2026-08-12T10:03:00Z" },
              { type: "Initialized", status: "True", lastTransitionTime: "2026-08-12T10:01:00Z" },
            ],
            podIP: null,
            podIPs: null,
            containerStatuses: null,
          },
        },
      ],
    ]);
    expect(served.status?.phase).toBe("Pending");
    expect(served.status?.podIP).toBeUndefined();
    expect(served.status?.podIPs).toBeUndefined();
    expect(served.status?.containerStatuses).toBeUndefined();
    expect(served.status?.startTime).toEqual(at(1));
    expect([isPodReady(served), isContainerRunning(served)]).toEqual([false, false]);

    // Woken on another IP, probe not answering yet.
    ({ served } = await step(pod, { state: VMState.Running, ip: "10.88.0.9", probeReady: false }, 4));
    expect([served.status?.phase, isPodReady(served), isContainerRunning(served), served.status?.podIPs]).toEqual([
      "Running",
      false,
      true,
      [{ ip: "10.88.0.9" }],
    ]);

    // Deleted: Succeeded, the container terminated; the scheduler's condition is still there.
    ({ served } = await step(pod, { state: VMState.Deleted }, 5));
    expect(served.status?.phase).toBe("Succeeded");
    expect(served.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: "Completed", finishedAt: at(5) });
    expect(served.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["PodScheduled", "True", undefined],
      ["Ready", "False", "PodCompleted"],
      ["ContainersReady", "False", "PodCompleted"],
      ["Initialized", "True", undefined],
    ]);
    await step(pod, { state: VMState.Deleted }, 6);
    expect(proxy.requests).toEqual([]);
  });
});

// reportVM on the real API server: the requests on the wire (how many, in which order), and what a
// watcher sees meanwhile: never a lifecycle state the pod's status does not show yet.
import { Watch, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchAnnotations, reportVM, writePodStatus, type CocoonClients } from "../../src/k8s/index.js";
import {
  Annotation,
  LifecycleState,
  VMState,
  isPodReady,
  lifecycleStatusAnnotations,
  podStatusForVM,
  readLifecycleState,
  type VMObservation,
} from "../../src/meta/index.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";
import { getControlPlane } from "./helpers.js";

let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-report"));
});

afterAll(() => closeProxiedSuite({ proxy, viaProxy, admin }));

const newPod = (annotations: Record<string, string> = {}): Promise<V1Pod> =>
  admin.core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name: `report-${++counter}`, annotations: { [Annotation.CocoonSetGeneration]: "4", ...annotations } },
      spec: { nodeName: "cocoon-node", containers: [{ name: "agent", image: "ghcr.io/cocoonstack/placeholder:latest" }] },
    },
  });

const podPath = (pod: V1Pod) => `/api/v1/namespaces/${ns}/pods/${pod.metadata!.name!}`;
const sentPaths = () => proxy.requests.map((r) => `${r.method} ${r.path.split("?")[0] ?? ""}`);
const running: VMObservation = { state: VMState.Running, ip: "10.88.0.7", probeReady: true };
const absent: VMObservation = { state: VMState.Absent };

describe("reportVM on a real API server", () => {
  it("a change is two requests, pod status first, then the lifecycle; the same report again is none", async () => {
    const pod = await newPod({ [Annotation.LifecycleState]: LifecycleState.Creating });
    proxy.reset();
    const first = await reportVM(viaProxy, pod, { state: LifecycleState.Ready, vm: running });
    expect(first.sent).toEqual(["status", "lifecycle"]);
    expect(sentPaths()).toEqual([`PATCH ${podPath(pod)}/status`, `PATCH ${podPath(pod)}`]);
    expect(proxy.requests.map((r) => r.status)).toEqual([200, 200]);
    const served = await admin.core.readNamespacedPod({ name: pod.metadata!.name!, namespace: ns });
    expect([served.status?.phase, isPodReady(served), served.status?.podIP, readLifecycleState(served)]).toEqual([
      "Running",
      true,
      "10.88.0.7",
      "ready",
    ]);
    expect(served.metadata?.annotations?.[Annotation.LifecycleObservedGeneration]).toBe("4");

    proxy.reset();
    const again = await reportVM(viaProxy, first.pod, { state: LifecycleState.Ready, vm: running });
    expect(again.sent).toEqual([]);
    expect(proxy.requests).toEqual([]);
    // The server's copy, read fresh, holds the report too: still nothing to send.
    await reportVM(viaProxy, served, { state: LifecycleState.Ready, vm: running });
    expect(proxy.requests).toEqual([]);
  });

  it("a change of one part is one request", async () => {
    const pod = await newPod();
    const { pod: hibernating } = await reportVM(viaProxy, pod, { state: LifecycleState.Hibernating, vm: absent });
    proxy.reset();
    const { sent } = await reportVM(viaProxy, hibernating, { state: LifecycleState.Hibernated, vm: absent });
    expect(sent).toEqual(["lifecycle"]);
    expect(sentPaths()).toEqual([`PATCH ${podPath(pod)}`]);
  });

  it("with the runtime, three requests: runtime, status, lifecycle", async () => {
    const pod = await newPod();
    proxy.reset();
    const { sent } = await reportVM(viaProxy, pod, {
      state: LifecycleState.Ready,
      vm: running,
      runtime: { vmID: "vm-1", ip: "10.88.0.7" },
    });
    expect(sent).toEqual(["runtime", "status", "lifecycle"]);
    expect(sentPaths()).toEqual([`PATCH ${podPath(pod)}`, `PATCH ${podPath(pod)}/status`, `PATCH ${podPath(pod)}`]);
    expect(JSON.parse(proxy.requests[0]?.body ?? "")).toEqual({
      metadata: { annotations: { [Annotation.VMID]: "vm-1", [Annotation.IP]: "10.88.0.7" } },
    });
  });
});

/** One watch event of a pod: its lifecycle state, phase, readiness and IP. */
interface Seen {
  state: string;
  phase: string;
  ready: boolean;
  ip: string;
}

/** What a watcher sees of one pod: each event's lifecycle state, phase, readiness and IP. */
async function watchPod(pod: V1Pod) {
  const seen: Seen[] = [];
  const watch = new Watch(getControlPlane().kubeConfig);
  const controller = await watch.watch(
    `/api/v1/namespaces/${ns}/pods`,
    { fieldSelector: `metadata.name=${pod.metadata!.name!}`, resourceVersion: pod.metadata!.resourceVersion },
    (_type, obj: V1Pod) =>
      seen.push({ state: readLifecycleState(obj), phase: obj.status?.phase ?? "", ready: isPodReady(obj), ip: obj.status?.podIP ?? "" }),
    () => undefined,
  );
  const settle = async (events: number) => {
    const deadline = Date.now() + 10_000;
    while (seen.length < events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    return seen;
  };
  return { settle };
}

/** Whether the pod status shows the lifecycle state it carries: `ready` running, ready and with an IP; `hibernated` pending without one. */
const shows = (e: Seen) =>
  e.state === LifecycleState.Ready
    ? e.phase === "Running" && e.ready && e.ip !== ""
    : e.state !== LifecycleState.Hibernated || (e.phase === "Pending" && !e.ready && e.ip === "");

/** The events at which the lifecycle state changes to one the pod status does not show yet (`from` is the state before the first). */
const ahead = (seen: Seen[], from: string) => seen.filter((e, i) => e.state !== (i === 0 ? from : seen[i - 1]?.state) && !shows(e));

describe("what a watcher sees while the virtual kubelet reports", () => {
  it("at no event does the lifecycle run ahead of the pod status: ready, hibernated, woken", async () => {
    const pod = await newPod({ [Annotation.LifecycleState]: LifecycleState.Creating });
    const { settle } = await watchPod(pod);
    let current: V1Pod = pod;
    for (const [state, vm] of [
      [LifecycleState.Ready, running],
      [LifecycleState.Hibernating, running],
      [LifecycleState.Hibernated, absent],
      [LifecycleState.Creating, absent],
      [LifecycleState.Ready, running],
    ] as const) {
      ({ pod: current } = await reportVM(admin, current, { state, vm }));
    }
    // Each report is its status, then its lifecycle; creating over a hibernated pod changes no status.
    const seen = await settle(9);
    expect(seen.map((e) => e.state)).toEqual([
      "creating",
      "ready",
      "ready",
      "hibernating",
      "hibernating",
      "hibernated",
      "creating",
      "creating",
      "ready",
    ]);
    expect(ahead(seen, LifecycleState.Creating)).toEqual([]);
    // The status runs ahead instead: the pod stops being ready while its lifecycle still says ready.
    expect(seen[2]).toEqual({ state: "ready", phase: "Running", ready: false, ip: "10.88.0.7" });
  });

  it("the order it replaces, lifecycle first, is caught by the same check", async () => {
    const pod = await newPod({ [Annotation.LifecycleState]: LifecycleState.Ready });
    const { pod: ready } = await reportVM(admin, pod, { state: LifecycleState.Ready, vm: running });
    const { settle } = await watchPod(ready);
    const hibernated = lifecycleStatusAnnotations({ state: LifecycleState.Hibernated, observedGeneration: 4, message: "" });
    const annotated = await patchAnnotations(admin, ready, hibernated);
    await writePodStatus(admin, annotated, podStatusForVM(annotated, absent, { now: new Date() }));
    const seen = await settle(2);
    expect(ahead(seen, LifecycleState.Ready)).toEqual([{ state: "hibernated", phase: "Running", ready: true, ip: "10.88.0.7" }]);
  });
});

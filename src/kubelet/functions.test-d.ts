import { CoordinationV1Api, CoreV1Api, KubeConfig, type V1Node, type V1Pod } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import { LifecycleState, VMState, podStatusForVM, type NodeResourcesInput } from "../meta/index.js";
import { keepNode as keepNodeK8s, reportVM as reportVMK8s, type KeptNode } from "../k8s/index.js";
import type { WatchedPod } from "../k8s/watch/watched-pod.js";
import {
  finishPodDeletion,
  keepNode,
  patchClearVMRuntime,
  patchLifecycleStatus,
  patchVMRuntime,
  reportVM,
  watchCocoonPods,
  writePodStatus,
  type CocoonWatch,
  type KubeRequester,
  type PodDeletion,
  type VMReported,
} from "./index.js";

// On a requester the answers are the server's JSON: ./kubelet says so, and never names client-node.
const requester = {} as KubeRequester;
const watched = {} as WatchedPod;
const options = { name: "cocoon-a", nodeIP: "10.0.0.4", resources: {} as NodeResourcesInput, signal: AbortSignal.abort() };
const report = { state: LifecycleState.Ready, vm: { state: VMState.Absent } } as const;

describe("./kubelet's functions", () => {
  it("resolve to the pod type given, the node as a KubeObject, the watch of WatchedPods", () => {
    expectTypeOf(keepNode(requester, options)).resolves.toEqualTypeOf<KeptNode>();
    expectTypeOf(reportVM(requester, watched, report)).resolves.toEqualTypeOf<VMReported<WatchedPod>>();
    expectTypeOf<VMReported<WatchedPod>["pod"]>().toEqualTypeOf<WatchedPod>();
    expectTypeOf(
      patchLifecycleStatus(requester, watched, { state: "ready", observedGeneration: 1, message: "" }),
    ).resolves.toEqualTypeOf<WatchedPod>();
    expectTypeOf(patchVMRuntime(requester, watched, { ip: "10.88.0.7" })).resolves.toEqualTypeOf<WatchedPod>();
    expectTypeOf(patchClearVMRuntime(requester, watched)).resolves.toEqualTypeOf<WatchedPod>();
    expectTypeOf(
      writePodStatus(requester, watched, podStatusForVM(watched, report.vm, { now: new Date() })),
    ).resolves.toEqualTypeOf<WatchedPod>();
    expectTypeOf(finishPodDeletion(requester, watched)).resolves.toEqualTypeOf<PodDeletion>();
    expectTypeOf(watchCocoonPods(requester)).toEqualTypeOf<CocoonWatch<WatchedPod>>();
  });

  it("take no client-node clients", () => {
    const kc = new KubeConfig();
    const clients = { core: kc.makeApiClient(CoreV1Api), coordination: kc.makeApiClient(CoordinationV1Api) };
    // @ts-expect-error ./kubelet's keepNode takes a KubeRequester only
    void keepNode(clients, options);
    expectTypeOf(keepNode).parameter(0).toEqualTypeOf<KubeRequester>();
  });
});

describe("./k8s's functions of the same names", () => {
  it("keep client-node's models", () => {
    expectTypeOf(keepNodeK8s(requester, options)).resolves.toEqualTypeOf<KeptNode<V1Node>>();
    expectTypeOf(reportVMK8s(requester, watched, report))
      .resolves.toHaveProperty("pod")
      .toEqualTypeOf<WatchedPod | V1Pod>();
  });
});

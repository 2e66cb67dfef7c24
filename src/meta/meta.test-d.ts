import type { KubernetesObject, V1Affinity, V1OwnerReference, V1Pod, V1Toleration } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import {
  type Annotated,
  type AnnotationDelta,
  type Int64,
  type LifecycleStatus,
  type PodLike,
  type VMRuntime,
  type VMSpec,
  Annotation,
  type Label,
  type LifecycleState,
  type Role,
  type SnapshotTag,
  annotationsSatisfied,
  applyAnnotations,
  applyHibernateState,
  applyLifecycleStatus,
  applyVMRuntime,
  applyVMSpec,
  clearHibernatedOnNode,
  cocoonSetOwnerName,
  hasCocoonTolerationKey,
  isContainerRunning,
  isOwnedByCocoonSet,
  isPodReady,
  isPodTerminal,
  markKeepSnapshotOnDelete,
  markRestoreFromHibernate,
  parseVMRuntime,
  parseVMSpec,
  podNodePool,
  preferredHostnameAffinity,
  readCocoonSetGeneration,
  readHibernateState,
  readHibernatedOnNode,
  readKeepSnapshotOnDelete,
  readLifecycleObservedGeneration,
  readLifecycleState,
  readLifecycleStatus,
  readRestoreFromHibernate,
  requiredHostnameAffinity,
  roleForPod,
  stampCocoonSetGeneration,
  stashHibernatedOnNode,
} from "./index.js";

declare const pod: V1Pod;
declare const set: KubernetesObject;
declare const status: LifecycleStatus;

describe("client-node's V1Pod fits every pod reader and writer", () => {
  it("is structurally an Annotated and a PodLike", () => {
    expectTypeOf<V1Pod>().toExtend<Annotated>();
    expectTypeOf<V1Pod>().toExtend<PodLike>();
    expectTypeOf<KubernetesObject>().toExtend<Annotated>();
  });

  it("is accepted by the annotation readers", () => {
    expectTypeOf(readHibernateState).toBeCallableWith(pod);
    expectTypeOf(readRestoreFromHibernate).toBeCallableWith(pod);
    expectTypeOf(readKeepSnapshotOnDelete).toBeCallableWith(pod);
    expectTypeOf(readLifecycleStatus).toBeCallableWith(pod);
    expectTypeOf(readLifecycleState).toBeCallableWith(pod);
    expectTypeOf(readLifecycleObservedGeneration).toBeCallableWith(pod);
    expectTypeOf(readCocoonSetGeneration).toBeCallableWith(pod);
    expectTypeOf(parseVMSpec).toBeCallableWith(pod);
    expectTypeOf(parseVMRuntime).toBeCallableWith(pod);
    expectTypeOf(annotationsSatisfied).toBeCallableWith(pod, { [Annotation.Hibernate]: null });
  });

  it("is accepted by the in-place writers", () => {
    expectTypeOf(applyHibernateState).toBeCallableWith(pod, true);
    expectTypeOf(markRestoreFromHibernate).toBeCallableWith(pod);
    expectTypeOf(markKeepSnapshotOnDelete).toBeCallableWith(pod);
    expectTypeOf(applyLifecycleStatus).toBeCallableWith(pod, status);
    expectTypeOf(stampCocoonSetGeneration).toBeCallableWith(pod, 7);
    expectTypeOf(stampCocoonSetGeneration).toBeCallableWith(pod, 7n);
    expectTypeOf(applyVMSpec).toBeCallableWith(pod, { vmName: "vk-ns-cs-0" });
    expectTypeOf(applyVMRuntime).toBeCallableWith(pod, { vmID: "vm-1" });
    expectTypeOf(applyAnnotations).toBeCallableWith(pod, { [Annotation.VMID]: "vm-1" });
  });

  it("is accepted by the pod helpers, with its own owner references and tolerations", () => {
    expectTypeOf(roleForPod).toBeCallableWith(pod, "vk-ns-cs-0");
    expectTypeOf(isPodReady).toBeCallableWith(pod);
    expectTypeOf(isPodTerminal).toBeCallableWith(pod);
    expectTypeOf(isContainerRunning).toBeCallableWith(pod);
    expectTypeOf(podNodePool).toBeCallableWith(pod);
    expectTypeOf(hasCocoonTolerationKey).toBeCallableWith(pod.spec?.tolerations);
    expectTypeOf(isOwnedByCocoonSet).toBeCallableWith(pod.metadata?.ownerReferences);
    expectTypeOf(cocoonSetOwnerName).toBeCallableWith(pod.metadata?.ownerReferences);
    expectTypeOf(hasCocoonTolerationKey).toBeCallableWith([] as V1Toleration[]);
    expectTypeOf(cocoonSetOwnerName).toBeCallableWith([] as V1OwnerReference[]);
  });

  it("a client-node object fits the CocoonSet wake-hint helpers", () => {
    expectTypeOf(readHibernatedOnNode).toBeCallableWith(set);
    expectTypeOf(stashHibernatedOnNode).toBeCallableWith(set, "node-a");
    expectTypeOf(clearHibernatedOnNode).toBeCallableWith(set);
  });

  it("plain JSON without metadata fits too", () => {
    expectTypeOf(readHibernateState).toBeCallableWith({});
    expectTypeOf(isPodReady).toBeCallableWith({});
  });

  it("the affinities are client-node V1Affinity values", () => {
    expectTypeOf(preferredHostnameAffinity("n")).toExtend<V1Affinity>();
    expectTypeOf(requiredHostnameAffinity("n")).toExtend<V1Affinity>();
  });
});

describe("key types", () => {
  it("Annotation is the union of its 26 values", () => {
    expectTypeOf<Annotation>().toEqualTypeOf<
      | "cocoonset.cocoonstack.io/mode"
      | "cocoonset.cocoonstack.io/image"
      | "cocoonset.cocoonstack.io/storage"
      | "cocoonset.cocoonstack.io/managed"
      | "cocoonset.cocoonstack.io/os"
      | "cocoonset.cocoonstack.io/snapshot-policy"
      | "cocoonset.cocoonstack.io/network"
      | "cocoonset.cocoonstack.io/force-pull"
      | "cocoonset.cocoonstack.io/generation"
      | "cocoonset.cocoonstack.io/hibernated-on-node"
      | "vm.cocoonstack.io/id"
      | "vm.cocoonstack.io/name"
      | "vm.cocoonstack.io/ip"
      | "vm.cocoonstack.io/vnc-port"
      | "vm.cocoonstack.io/hibernate"
      | "vm.cocoonstack.io/restore-from-hibernate"
      | "vm.cocoonstack.io/keep-snapshot-on-delete"
      | "vm.cocoonstack.io/fork-from"
      | "vm.cocoonstack.io/clone-from-dir"
      | "vm.cocoonstack.io/conn-type"
      | "vm.cocoonstack.io/backend"
      | "vm.cocoonstack.io/no-direct-io"
      | "vm.cocoonstack.io/probe-port"
      | "vm.cocoonstack.io/lifecycle-state"
      | "vm.cocoonstack.io/lifecycle-observed-generation"
      | "vm.cocoonstack.io/lifecycle-state-message"
    >();
    expectTypeOf<Annotation>().toEqualTypeOf<(typeof Annotation)[keyof typeof Annotation]>();
    expectTypeOf(Annotation.Hibernate).toEqualTypeOf<"vm.cocoonstack.io/hibernate">();
  });

  it("Label, Role, SnapshotTag and LifecycleState are unions of their values", () => {
    expectTypeOf<Label>().toEqualTypeOf<
      | "cocoonset.cocoonstack.io/name"
      | "cocoonset.cocoonstack.io/role"
      | "cocoonset.cocoonstack.io/slot"
      | "cocoonstack.io/pool"
      | "cocoonstack.io/snapshot-cpu-class"
    >();
    expectTypeOf<Role>().toEqualTypeOf<"main" | "sub-agent" | "toolbox">();
    expectTypeOf<SnapshotTag>().toEqualTypeOf<"hibernate" | "latest">();
    expectTypeOf<LifecycleState>().toEqualTypeOf<"creating" | "ready" | "hibernating" | "hibernated" | "failed">();
  });
});

describe("contract types", () => {
  it("VMSpec.probePort is a string, like Go", () => {
    expectTypeOf<VMSpec["probePort"]>().toEqualTypeOf<string>();
    expectTypeOf<VMSpec["managed"]>().toEqualTypeOf<boolean>();
    expectTypeOf<VMSpec["storage"]>().toEqualTypeOf<string>();
    expectTypeOf<keyof VMSpec>().toEqualTypeOf<
      | "vmName"
      | "image"
      | "mode"
      | "os"
      | "storage"
      | "network"
      | "snapshotPolicy"
      | "forkFrom"
      | "managed"
      | "forcePull"
      | "noDirectIO"
      | "connType"
      | "backend"
      | "probePort"
    >();
  });

  it("VMRuntime.vncPort is a number", () => {
    expectTypeOf<VMRuntime>().toEqualTypeOf<{ vmID: string; ip: string; vncPort: number }>();
    expectTypeOf(parseVMRuntime).returns.toEqualTypeOf<VMRuntime>();
  });

  it("generations are Go int64s: number or bigint", () => {
    expectTypeOf<Int64>().toEqualTypeOf<number | bigint>();
    expectTypeOf<LifecycleStatus["observedGeneration"]>().toEqualTypeOf<Int64>();
    expectTypeOf(readCocoonSetGeneration).returns.toEqualTypeOf<Int64>();
  });

  it("readers return plain values, roleForPod a Role", () => {
    expectTypeOf(readHibernateState).returns.toEqualTypeOf<boolean>();
    expectTypeOf(parseVMSpec).returns.toEqualTypeOf<VMSpec>();
    expectTypeOf(roleForPod).returns.toEqualTypeOf<Role>();
    expectTypeOf(podNodePool).returns.toEqualTypeOf<string>();
  });

  it("an AnnotationDelta maps keys to a string or null, read-only", () => {
    expectTypeOf<AnnotationDelta>().toEqualTypeOf<Readonly<Record<string, string | null>>>();
    expectTypeOf<{ a: number }>().not.toExtend<AnnotationDelta>();
    expectTypeOf<{ a: undefined }>().not.toExtend<AnnotationDelta>();
  });
});

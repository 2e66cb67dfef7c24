import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Pod } from "@kubernetes/client-node";
import { describe, expectTypeOf, it } from "vitest";
import type { CocoonHibernation, CocoonSet } from "../../apis/v1/index.js";
import { Annotation, VMState, podStatusForVM } from "../../meta/index.js";
import { patchClearVMRuntime } from "../kubelet/clear-vm-runtime.js";
import { writePodStatus } from "../kubelet/write-pod-status.js";
import type { WatchedPod } from "../watch/watched-pod.js";
import { patchAnnotations } from "./annotations.js";
import { patch, patchStatus } from "./clientpatch.js";
import { patchCocoonSetGeneration, patchHibernateState, patchHibernatedOnNode, patchKeepSnapshotOnDelete } from "./contracts.js";
import type { Patched } from "./patched.js";

// client-node 1.4 (and 2) answers a pod write with its V1Pod model, timestamps as Dates, whatever
// the caller passed; a custom object's answer is the server's JSON. The declared types say so.
const kc = new KubeConfig();
const clients = { core: kc.makeApiClient(CoreV1Api), customObjects: kc.makeApiClient(CustomObjectsApi) };
const watched = {} as WatchedPod;
const pod = {} as V1Pod;
const set = {} as CocoonSet;
const hibernation = {} as CocoonHibernation;

describe("a pod written by a helper is what client-node answers", () => {
  it("a WatchedPod comes back as itself (nothing sent) or as client-node's V1Pod", async () => {
    const written = await patchAnnotations(clients, watched, { [Annotation.IP]: "10.88.0.7" });
    expectTypeOf(written).toEqualTypeOf<WatchedPod | V1Pod>();
    // @ts-expect-error -- a V1Pod's creationTimestamp is a Date: .slice() would throw at runtime
    written.metadata?.creationTimestamp?.slice(0, 10); // eslint-disable-line @typescript-eslint/no-unsafe-call -- the expected error
    expectTypeOf(written.metadata?.creationTimestamp).toEqualTypeOf<string | Date | undefined>();
  });

  it("every pod helper declares the same", () => {
    const status = podStatusForVM(watched, { state: VMState.Absent }, { now: new Date() });
    expectTypeOf(patch(clients, watched, () => undefined)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(patchStatus(clients, watched, () => undefined)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(patchHibernateState(clients, watched, true)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(patchKeepSnapshotOnDelete(clients, watched)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(patchCocoonSetGeneration(clients, watched, 3)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(patchClearVMRuntime(clients, watched)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
    expectTypeOf(writePodStatus(clients, watched, status)).toEqualTypeOf<Promise<WatchedPod | V1Pod>>();
  });

  it("a V1Pod stays a V1Pod, its times Dates", async () => {
    const written = await patchAnnotations(clients, pod, { [Annotation.IP]: "10.88.0.7" });
    expectTypeOf(written).toEqualTypeOf<V1Pod>();
    expectTypeOf(written.metadata?.creationTimestamp).toEqualTypeOf<Date | undefined>();
  });
});

describe("a cocoon kind written by a helper is the server's JSON", () => {
  it("keeps its own type, its times strings", async () => {
    const written = await patchHibernatedOnNode(clients, set, "node-a");
    expectTypeOf(written).toEqualTypeOf<CocoonSet>();
    expectTypeOf(patch(clients, hibernation, () => undefined)).toEqualTypeOf<Promise<CocoonHibernation>>();
    expectTypeOf<Patched<CocoonSet>>().toEqualTypeOf<CocoonSet>();
  });
});

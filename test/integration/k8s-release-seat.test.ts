import { AdmissionregistrationV1Api, PatchStrategy, Watch, setHeaderOptions, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotFound, releaseSeat, statusCode, type CocoonClients } from "../../src/k8s/index.js";
import { Annotation } from "../../src/meta/index.js";
import { createTestNamespace, getControlPlane } from "./helpers.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";

const FLAG_BODY = JSON.stringify({ metadata: { annotations: { [Annotation.KeepSnapshotOnDelete]: "true" } } });

let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-seat"));
});

afterAll(() => closeProxiedSuite({ proxy, viaProxy, admin }));

function newPod(
  namespace: string,
  options: { nodeName?: string; annotations?: Record<string, string>; name?: string } = {},
): Promise<V1Pod> {
  return admin.core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name: options.name ?? `agent-${++counter}`, annotations: options.annotations ?? {} },
      spec: { containers: [{ name: "c", image: "busybox" }], ...(options.nodeName && { nodeName: options.nodeName }) },
    },
  });
}

/** Watches one pod from `resourceVersion` on and records each event's type, flag and deletion mark. */
async function watchPod(pod: V1Pod) {
  const events: { type: string; flagged: boolean; deleting: boolean }[] = [];
  const watch = new Watch(getControlPlane().kubeConfig);
  const controller = await watch.watch(
    `/api/v1/namespaces/${pod.metadata!.namespace}/pods`,
    { fieldSelector: `metadata.name=${pod.metadata!.name}`, resourceVersion: pod.metadata!.resourceVersion },
    (type, obj: V1Pod) => {
      events.push({
        type,
        flagged: obj.metadata?.annotations?.[Annotation.KeepSnapshotOnDelete] === "true",
        deleting: type === "DELETED" || obj.metadata?.deletionTimestamp !== undefined,
      });
    },
    () => undefined,
  );
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
  };
  return { events, until };
}

describe("releaseSeat on a real apiserver", () => {
  it.each([
    ["a scheduled pod (graceful delete)", "node-a"],
    ["an unscheduled pod (immediate delete)", undefined],
  ])("%s: a watch sees the flag before the deletion, and the deleted pod carries it", async (_name, nodeName) => {
    const pod = await newPod(ns, nodeName ? { nodeName } : {});
    const { events, until } = await watchPod(pod);
    proxy.reset();

    expect(await releaseSeat(viaProxy, pod)).toEqual({ flagged: true, deletion: "deleted" });
    await until(() => events.some((e) => e.deleting));

    const path = `/api/v1/namespaces/${ns}/pods/${pod.metadata!.name}`;
    expect(proxy.requests.map((r) => [r.method, r.path, r.contentType, r.method === "PATCH" ? r.body : undefined, r.status])).toEqual([
      ["PATCH", path, "application/merge-patch+json", FLAG_BODY, 200],
      ["DELETE", path, "application/json", undefined, 200],
    ]);
    // The delete reached the server only after the flag patch had been answered.
    expect(proxy.requests[1]!.receivedAt).toBeGreaterThan(proxy.requests[0]!.answeredAt!);
    const firstFlag = events.findIndex((e) => e.flagged);
    const firstDeleting = events.findIndex((e) => e.deleting);
    expect(firstFlag).toBeGreaterThanOrEqual(0);
    expect(firstDeleting).toBeGreaterThan(firstFlag);
    expect(events[firstDeleting]?.flagged).toBe(true);
  });

  it("counts a pod that is already gone as released, without a delete", async () => {
    const pod = await newPod(ns);
    await admin.core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace: ns });
    proxy.reset();
    expect(await releaseSeat(viaProxy, pod)).toEqual({ flagged: false, deletion: "already-gone" });
    expect(proxy.requests.map((r) => [r.method, r.status])).toEqual([["PATCH", 404]]);
  });

  it("counts a flagged pod that is already gone as released", async () => {
    const pod = await newPod(ns, { annotations: { [Annotation.KeepSnapshotOnDelete]: "true" } });
    await admin.core.deleteNamespacedPod({ name: pod.metadata!.name!, namespace: ns });
    proxy.reset();
    expect(await releaseSeat(viaProxy, pod)).toEqual({ flagged: true, deletion: "already-gone" });
    expect(proxy.requests.map((r) => [r.method, r.status])).toEqual([["DELETE", 404]]);
  });

  it.each([
    ["unflagged: the flag lands on the newer pod by name, whose uid ends the call", {}, false, [["PATCH", 200]]],
    ["already flagged: the uid precondition refuses the delete", { [Annotation.KeepSnapshotOnDelete]: "true" }, true, [["DELETE", 409]]],
  ])("leaves a newer pod that took the name alone (%s)", async (_name, annotations, flagged, requests) => {
    const old = await newPod(ns, { annotations });
    await admin.core.deleteNamespacedPod({ name: old.metadata!.name!, namespace: ns });
    const newer = await newPod(ns, { name: old.metadata!.name! });
    proxy.reset();
    expect(await releaseSeat(viaProxy, old)).toEqual({ flagged, deletion: "already-gone" });
    expect(proxy.requests.map((r) => [r.method, r.status])).toEqual(requests);
    const still = await admin.core.readNamespacedPod({ name: newer.metadata!.name!, namespace: ns });
    expect(still.metadata?.uid).toBe(newer.metadata?.uid);
    expect(still.metadata?.deletionTimestamp).toBeUndefined();
  });

  describe("when an admission policy denies the flag", () => {
    let denied: string;
    const policy = `deny-keep-snapshot-${Math.random().toString(36).slice(2, 8)}`;
    const admission = () => getControlPlane().kubeConfig.makeApiClient(AdmissionregistrationV1Api);

    beforeAll(async () => {
      denied = await createTestNamespace("k8s-seat-denied");
      await admission().createValidatingAdmissionPolicy({
        body: {
          metadata: { name: policy },
          spec: {
            failurePolicy: "Fail",
            matchConstraints: { resourceRules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["UPDATE"], resources: ["pods"] }] },
            validations: [
              {
                expression: `!has(object.metadata.annotations) || !('${Annotation.KeepSnapshotOnDelete}' in object.metadata.annotations)`,
                message: "keep-snapshot-on-delete is not allowed in this namespace",
              },
            ],
          },
        },
      });
      await admission().createValidatingAdmissionPolicyBinding({
        body: {
          metadata: { name: policy },
          spec: {
            policyName: policy,
            validationActions: ["Deny"],
            matchResources: { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": denied } } },
          },
        },
      });
      // A new policy takes effect after a moment: wait until a dry-run flag is refused.
      const probe = await newPod(denied, { name: "probe" });
      const deadline = Date.now() + 20_000;
      for (;;) {
        const refused = await admin.core
          .patchNamespacedPod(
            { name: "probe", namespace: denied, body: JSON.parse(FLAG_BODY) as object, dryRun: "All" },
            setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
          )
          .then(
            () => false,
            (err: unknown) => statusCode(err) === 422,
          );
        if (refused || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(probe.metadata?.name).toBe("probe");
      expect(Date.now()).toBeLessThan(deadline);
    });

    afterAll(async () => {
      await admission().deleteValidatingAdmissionPolicyBinding({ name: policy });
      await admission().deleteValidatingAdmissionPolicy({ name: policy });
    });

    it("still deletes the pod, logs the failure at error level and reports the flag did not land", async () => {
      const pod = await newPod(denied);
      const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
      proxy.reset();

      const result = await releaseSeat(viaProxy, pod, { logger: { error: (message, fields) => void logged.push({ message, fields }) } });

      expect(result.flagged).toBe(false);
      expect(result.deletion).toBe("deleted");
      expect(statusCode(result.flagError)).toBe(422);
      expect(proxy.requests.map((r) => [r.method, r.status])).toEqual([
        ["PATCH", 422],
        ["DELETE", 200],
      ]);
      expect(logged).toHaveLength(1);
      expect(logged[0]?.message).toMatch(
        new RegExp(
          `^flag pod ${denied}/${pod.metadata!.name} ${Annotation.KeepSnapshotOnDelete} before releasing its seat: 422 .*keep-snapshot-on-delete is not allowed in this namespace`,
        ),
      );
      expect(logged[0]?.fields).toEqual({
        err: result.flagError,
        pod: `${denied}/${pod.metadata!.name}`,
        annotation: Annotation.KeepSnapshotOnDelete,
      });
      const gone = await admin.core.readNamespacedPod({ name: pod.metadata!.name!, namespace: denied }).catch((err: unknown) => err);
      expect(isNotFound(gone)).toBe(true);
    });
  });
});

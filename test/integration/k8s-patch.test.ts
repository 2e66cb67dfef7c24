import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  patch,
  patchAnnotations,
  patchCocoonSetGeneration,
  patchHibernateState,
  patchHibernatedOnNode,
  patchKeepSnapshotOnDelete,
  patchStatus,
  watchCocoonPods,
  type CocoonClients,
  type KubeObject,
  type WatchedPod,
} from "../../src/k8s/index.js";
import { Annotation, Label, TOLERATION_KEY, annotationsMergePatchJSON, type AnnotationDelta } from "../../src/meta/index.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";

const MERGE = "application/merge-patch+json";
const OTHER = { "keep.example.com/other": "untouched" };
const SET_API = "/apis/cocoonset.cocoonstack.io/v1";

let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-patch"));
});

afterAll(() => closeProxiedSuite({ proxy, viaProxy, admin }));

async function newPod(annotations: Record<string, string> = {}): Promise<V1Pod> {
  const name = `pod-${++counter}`;
  return admin.core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name, labels: { app: "demo" }, annotations: { ...OTHER, ...annotations } },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    },
  });
}

async function newSet(annotations: Record<string, string> = {}): Promise<KubeObject & Record<string, unknown>> {
  const name = `set-${++counter}`;
  return (await admin.customObjects.createNamespacedCustomObject({
    group: "cocoonset.cocoonstack.io",
    version: "v1",
    namespace: ns,
    plural: "cocoonsets",
    body: {
      apiVersion: "cocoonset.cocoonstack.io/v1",
      kind: "CocoonSet",
      metadata: { name, annotations: { ...OTHER, ...annotations } },
      spec: { agent: { image: "ghcr.io/x:1" } },
    },
  })) as KubeObject & Record<string, unknown>;
}

const readPod = (name: string) => admin.core.readNamespacedPod({ name, namespace: ns });
const readSet = async (name: string) =>
  (await admin.customObjects.getNamespacedCustomObject({
    group: "cocoonset.cocoonstack.io",
    version: "v1",
    namespace: ns,
    plural: "cocoonsets",
    name,
  })) as {
    metadata: { annotations?: Record<string, string>; generation: number };
    spec: unknown;
    status?: { phase?: string };
  };

type Call = (clients: CocoonClients, obj: KubeObject) => Promise<unknown>;

describe("annotation patch helpers on a real apiserver", () => {
  it.each<[string, "pod" | "set", Record<string, string>, Call, AnnotationDelta | undefined, Record<string, string | undefined>]>([
    [
      "keep-snapshot: unflagged pod",
      "pod",
      {},
      (c, o) => patchKeepSnapshotOnDelete(c, o),
      { [Annotation.KeepSnapshotOnDelete]: "true" },
      { [Annotation.KeepSnapshotOnDelete]: "true" },
    ],
    [
      "keep-snapshot: already flagged",
      "pod",
      { [Annotation.KeepSnapshotOnDelete]: "true" },
      (c, o) => patchKeepSnapshotOnDelete(c, o),
      undefined,
      { [Annotation.KeepSnapshotOnDelete]: "true" },
    ],
    [
      "hibernate: set",
      "pod",
      {},
      (c, o) => patchHibernateState(c, o, true),
      { [Annotation.Hibernate]: "true" },
      { [Annotation.Hibernate]: "true" },
    ],
    [
      "hibernate: already set",
      "pod",
      { [Annotation.Hibernate]: "true" },
      (c, o) => patchHibernateState(c, o, true),
      undefined,
      { [Annotation.Hibernate]: "true" },
    ],
    [
      "hibernate: clear",
      "pod",
      { [Annotation.Hibernate]: "true" },
      (c, o) => patchHibernateState(c, o, false),
      { [Annotation.Hibernate]: null },
      { [Annotation.Hibernate]: undefined },
    ],
    [
      'hibernate: "false" already reads false',
      "pod",
      { [Annotation.Hibernate]: "false" },
      (c, o) => patchHibernateState(c, o, false),
      undefined,
      { [Annotation.Hibernate]: "false" },
    ],
    [
      "generation: stamp",
      "pod",
      { [Annotation.CocoonSetGeneration]: "6" },
      (c, o) => patchCocoonSetGeneration(c, o, 7),
      { [Annotation.CocoonSetGeneration]: "7" },
      { [Annotation.CocoonSetGeneration]: "7" },
    ],
    [
      "generation: same parsed value",
      "pod",
      { [Annotation.CocoonSetGeneration]: "+7" },
      (c, o) => patchCocoonSetGeneration(c, o, 7),
      undefined,
      { [Annotation.CocoonSetGeneration]: "+7" },
    ],
    [
      "generation: 0 matches garbage",
      "pod",
      { [Annotation.CocoonSetGeneration]: "abc" },
      (c, o) => patchCocoonSetGeneration(c, o, 0),
      undefined,
      { [Annotation.CocoonSetGeneration]: "abc" },
    ],
    [
      "hibernated-on-node: stash",
      "set",
      {},
      (c, o) => patchHibernatedOnNode(c, o, "node-a"),
      { [Annotation.HibernatedOnNode]: "node-a" },
      { [Annotation.HibernatedOnNode]: "node-a" },
    ],
    [
      "hibernated-on-node: same node",
      "set",
      { [Annotation.HibernatedOnNode]: "node-a" },
      (c, o) => patchHibernatedOnNode(c, o, "node-a"),
      undefined,
      { [Annotation.HibernatedOnNode]: "node-a" },
    ],
    [
      "hibernated-on-node: clear",
      "set",
      { [Annotation.HibernatedOnNode]: "node-a" },
      (c, o) => patchHibernatedOnNode(c, o, null),
      { [Annotation.HibernatedOnNode]: null },
      { [Annotation.HibernatedOnNode]: undefined },
    ],
    [
      "hibernated-on-node: clear when unset",
      "set",
      {},
      (c, o) => patchHibernatedOnNode(c, o, null),
      undefined,
      { [Annotation.HibernatedOnNode]: undefined },
    ],
    [
      "patchAnnotations: pod delta",
      "pod",
      { [Annotation.IP]: "10.0.0.1" },
      (c, o) => patchAnnotations(c, o, { [Annotation.VMID]: "vm-1", [Annotation.IP]: null }),
      { [Annotation.VMID]: "vm-1", [Annotation.IP]: null },
      { [Annotation.VMID]: "vm-1", [Annotation.IP]: undefined },
    ],
    [
      "patchAnnotations: satisfied",
      "pod",
      { [Annotation.VMID]: "vm-1" },
      (c, o) => patchAnnotations(c, o, { [Annotation.VMID]: "vm-1", [Annotation.IP]: null }),
      undefined,
      { [Annotation.VMID]: "vm-1" },
    ],
    [
      "patchAnnotations: CocoonSet delta",
      "set",
      {},
      (c, o) => patchAnnotations(c, o, { "example.com/x": "1" }),
      { "example.com/x": "1" },
      { "example.com/x": "1" },
    ],
  ])("%s", async (_name, kind, initial, call, sent, after) => {
    const obj = kind === "pod" ? await newPod(initial) : await newSet(initial);
    const name = obj.metadata!.name!;
    const before = kind === "pod" ? await readPod(name) : await readSet(name);
    proxy.reset();

    await call(viaProxy, obj);

    const path = kind === "pod" ? `/api/v1/namespaces/${ns}/pods/${name}` : `${SET_API}/namespaces/${ns}/cocoonsets/${name}`;
    const expected =
      sent === undefined ? [] : [{ method: "PATCH", path, contentType: MERGE, body: annotationsMergePatchJSON(sent), status: 200 }];
    expect(proxy.requests.map(({ method, path, contentType, body, status }) => ({ method, path, contentType, body, status }))).toEqual(
      expected,
    );

    const back = kind === "pod" ? await readPod(name) : await readSet(name);
    const annotations = back.metadata?.annotations ?? {};
    expect(annotations).toMatchObject(OTHER);
    for (const [key, value] of Object.entries(after)) expect(annotations[key]).toBe(value);
    const untouched = (o: typeof back) => ({
      ...o,
      metadata: { ...o.metadata, annotations: undefined, resourceVersion: undefined, managedFields: undefined },
    });
    expect(untouched(back)).toEqual(untouched(before));
  });
});

describe("patch and patchStatus on a real apiserver", () => {
  it("sends the minimal merge patch of a mutation and leaves the rest alone", async () => {
    const pod = await newPod();
    proxy.reset();
    const served = await patch(viaProxy, pod, (copy) => {
      copy.metadata!.labels = { app: "demo", tier: "agent" };
    });
    expect(proxy.requests).toMatchObject([
      {
        method: "PATCH",
        path: `/api/v1/namespaces/${ns}/pods/${pod.metadata!.name}`,
        contentType: MERGE,
        body: '{"metadata":{"labels":{"tier":"agent"}}}',
        status: 200,
      },
    ]);
    expect(served.metadata?.labels).toEqual({ app: "demo", tier: "agent" });
    expect(served.metadata?.annotations).toEqual(OTHER);
    expect(pod.metadata?.labels).toEqual({ app: "demo" });
  });

  it("sends nothing for a mutation that changes nothing", async () => {
    const pod = await newPod();
    proxy.reset();
    expect(await patch(viaProxy, pod, (copy) => void (copy.metadata!.labels = { app: "demo" }))).toBe(pod);
    expect(await patchStatus(viaProxy, pod, () => undefined)).toBe(pod);
    expect(proxy.requests).toEqual([]);
  });

  it("patches a CocoonSet's status subresource, guarded by its resourceVersion", async () => {
    const set = (await newSet()) as KubeObject & { status?: { phase?: string } };
    proxy.reset();
    await patchStatus(viaProxy, set, (copy) => void (copy.status = { phase: "Suspended" }), { optimisticLock: true });
    expect(proxy.requests).toMatchObject([
      {
        method: "PATCH",
        path: `${SET_API}/namespaces/${ns}/cocoonsets/${set.metadata!.name}/status`,
        contentType: MERGE,
        body: `{"metadata":{"resourceVersion":"${set.metadata!.resourceVersion!}"},"status":{"phase":"Suspended"}}`,
        status: 200,
      },
    ]);
    const back = await readSet(set.metadata!.name!);
    expect(back.status?.phase).toBe("Suspended");
    expect(back.metadata.generation).toBe(1);
  });

  it("replaces a pod's condition list whole on /status", async () => {
    const pod = await newPod();
    const withStatus = await patchStatus(admin, pod, (copy) => {
      copy.status = {
        ...copy.status,
        conditions: [
          { type: "example.com/A", status: "False" },
          { type: "example.com/B", status: "True" },
        ],
      };
    });
    proxy.reset();
    const served = await patchStatus(viaProxy, withStatus, (copy) => void (copy.status!.conditions![0]!.status = "True"));
    expect(proxy.requests).toHaveLength(1);
    expect(JSON.parse(proxy.requests[0]!.body)).toEqual({
      status: {
        conditions: withStatus.status!.conditions!.map(
          (c, i) => JSON.parse(JSON.stringify(i === 0 ? { ...c, status: "True" } : c)) as unknown,
        ),
      },
    });
    expect(served.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ["example.com/A", "True"],
      ["example.com/B", "True"],
    ]);
  });
});

// Issue 34, item 6: what a write resolves to is what its declared type (Patched<T>) says.
describe("what a write resolves to at runtime", () => {
  it("a pod comes back as client-node's V1Pod, timestamps as Dates, even from a WatchedPod", async () => {
    const created = await admin.core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: `pod-${++counter}`, labels: { [Label.CocoonSet]: "demo" } },
        spec: { containers: [{ name: "c", image: "busybox" }], tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }] },
      },
    });
    const signal = AbortSignal.timeout(20_000);
    let watched: WatchedPod | undefined;
    for await (const event of watchCocoonPods(admin, {
      namespace: ns,
      fieldSelector: `metadata.name=${created.metadata!.name!}`,
      signal,
    })) {
      if (event.type === "added") watched = event.object;
      if (event.type === "synced") break;
    }
    expect(typeof watched?.metadata.creationTimestamp).toBe("string");
    const written = await patchAnnotations(admin, watched!, { [Annotation.IP]: "10.88.0.7" });
    expect(written.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect((written.metadata?.creationTimestamp as Date).getTime()).toBe(Date.parse(watched!.metadata.creationTimestamp!));
    const again = await patchHibernateState(admin, written, true);
    expect(again.metadata?.creationTimestamp).toBeInstanceOf(Date);
  });

  it("a CocoonSet comes back as the server's JSON, timestamps as strings", async () => {
    const set = await newSet();
    const written = await patchHibernatedOnNode(admin, set, "node-a");
    expect(typeof (written.metadata as Record<string, unknown>).creationTimestamp).toBe("string");
  });
});

import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/apis/v1/index.js";
import {
  finishPodDeletion,
  isUnexpectedObjectError,
  patch,
  patchAnnotations,
  patchClearVMRuntime,
  patchHibernateState,
  patchKeepSnapshotOnDelete,
  patchLifecycleStatus,
  patchVMRuntime,
  releaseSeat,
  reportVM,
  writePodStatus,
  type KubeObject,
} from "../../src/k8s/index.js";
import { Annotation } from "../../src/meta/index.js";
import { podObject, startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { json } from "./support/peer.js";

// Rule 2 of issue 33: a 200 that is not the object asked for is ERR_UNEXPECTED_OBJECT, never the
// pod, and never the target of the next write.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const POD = { metadata: { name: "demo-0", namespace: "prod", uid: "u-1", annotations: { [Annotation.VMID]: "vm-1" } } };
const SET = { apiVersion: API_VERSION, kind: "CocoonSet", metadata: { name: "sandbox", namespace: "prod", uid: "s-1" } };
const setObject = (name: string, namespace: string, uid: string) => ({ ...SET, metadata: { name, namespace, uid, resourceVersion: "7" } });
const NODE = { kind: "Node", apiVersion: "v1", metadata: { name: "demo-0", uid: "u-1" } };

/** What a hostile server answers instead of the pod, and the field the error names. */
const POD_ANSWERS: readonly (readonly [what: string, body: unknown, path: string])[] = [
  ["another pod's name", podObject("other", "prod", "u-1"), "metadata.name"],
  ["another uid", podObject("demo-0", "prod", "u-2"), "metadata.uid"],
  ["another namespace", podObject("demo-0", "kube-system", "u-1"), "metadata.namespace"],
  ["a Node", NODE, "kind"],
  // client-node turns a body that is not an object into an empty V1Pod (no kind); null stays null.
  ["[1,2,3]", [1, 2, 3], "kind"],
  ['"x"', "x", "kind"],
  ["null", null, ""],
  ["{}", {}, "kind"],
];

const answering = (body: unknown) => (_req: unknown, res: ServerResponse) => {
  json(res, 200, body);
};

async function unexpected(promise: Promise<unknown>): Promise<{ code: string; path: string; message: string }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isUnexpectedObjectError(err)) throw new Error(`expected an UnexpectedObjectError, got ${String(err)}`);
  return { code: err.code, path: err.path, message: err.message };
}

type PodCall = (pod: KubeObject) => Promise<unknown>;
const POD_WRITES: readonly (readonly [helper: string, method: string, call: PodCall])[] = [
  ["patchAnnotations", "PATCH", (p) => patchAnnotations(api.clients, p, { [Annotation.IP]: "10.0.0.1" })],
  ["patchHibernateState", "PATCH", (p) => patchHibernateState(api.clients, p, true)],
  ["patchKeepSnapshotOnDelete", "PATCH", (p) => patchKeepSnapshotOnDelete(api.clients, p)],
  ["patchClearVMRuntime", "PATCH", (p) => patchClearVMRuntime(api.clients, p)],
  ["patch", "PATCH", (p) => patch(api.clients, p, (copy) => void (copy.metadata = { ...copy.metadata, annotations: { a: "b" } }))],
  ["writePodStatus", "PATCH", (p) => writePodStatus(api.clients, p, { phase: "Pending", conditions: [] })],
  ["patchVMRuntime", "PATCH", (p) => patchVMRuntime(api.clients, p, { ip: "10.0.0.1" })],
  ["patchLifecycleStatus", "PATCH", (p) => patchLifecycleStatus(api.clients, p, { state: "ready", observedGeneration: 0, message: "" })],
  // The first of its writes is the runtime's; a wrong answer to it stops the report there.
  ["reportVM", "PATCH", (p) => reportVM(api.clients, p, { state: "ready", vm: { state: "absent" }, runtime: { ip: "10.0.0.1" } })],
  ["finishPodDeletion", "DELETE", (p) => finishPodDeletion(api.clients, p)],
  // The same helpers on the ./kubelet path: a KubeRequester read from the same kubeconfig, no client-node.
  ["writePodStatus (requester)", "PATCH", (p) => writePodStatus(api.requester, p, { phase: "Pending", conditions: [] })],
  ["patchVMRuntime (requester)", "PATCH", (p) => patchVMRuntime(api.requester, p, { ip: "10.0.0.1" })],
  ["patchClearVMRuntime (requester)", "PATCH", (p) => patchClearVMRuntime(api.requester, p)],
  [
    "patchLifecycleStatus (requester)",
    "PATCH",
    (p) => patchLifecycleStatus(api.requester, p, { state: "ready", observedGeneration: 0, message: "" }),
  ],
  [
    "reportVM (requester)",
    "PATCH",
    (p) => reportVM(api.requester, p, { state: "ready", vm: { state: "absent" }, runtime: { ip: "10.0.0.1" } }),
  ],
  ["finishPodDeletion (requester)", "DELETE", (p) => finishPodDeletion(api.requester, p)],
];

/** On a requester the answer is the server's JSON as sent: one that is not an object is refused as such (path ""), not as an empty V1Pod. */
const pathOn = (helper: string, what: string, path: string): string =>
  helper.endsWith("(requester)") && ["[1,2,3]", '"x"'].includes(what) ? "" : path;

describe("a pod write answered with something else rejects", () => {
  it.each(POD_WRITES)("%s: every wrong 200 is ERR_UNEXPECTED_OBJECT after one request", async (helper, method, call) => {
    for (const [what, body, path] of POD_ANSWERS) {
      api.handle(answering(body));
      expect([what, await unexpected(call(POD)).then(({ code, path: at }) => [code, at])]).toEqual([
        what,
        ["ERR_UNEXPECTED_OBJECT", pathOn(helper, what, path)],
      ]);
      expect(api.peer.seen.map((r) => r.method)).toEqual([method]);
    }
    // The pod itself is believed.
    api.handle(answering(podObject("demo-0", "prod", "u-1")));
    await expect(call(POD)).resolves.toBeDefined();
  });

  it("says which field differs", async () => {
    api.handle(answering(podObject("other", "prod", "u-9")));
    expect(await unexpected(patchHibernateState(api.clients, POD, true))).toEqual({
      code: "ERR_UNEXPECTED_OBJECT",
      path: "metadata.name",
      message:
        'patch Pod prod/demo-0: the API server answered with Pod prod/other that is not the object asked for: metadata.name: is "other", not "demo-0"',
    });
    api.handle(answering([1, 2, 3]));
    expect(await unexpected(writePodStatus(api.clients, POD, { phase: "Pending", conditions: [] }))).toEqual({
      code: "ERR_UNEXPECTED_OBJECT",
      path: "kind",
      message:
        'patch status of Pod prod/demo-0: the API server answered with something that is not the object asked for: kind: is "", not "Pod"',
    });
  });

  it("a follow-on write after a wrong answer never goes to the other pod's path", async () => {
    api.handle((req, res) => {
      if (req.path.includes("/pods/demo-0") && !req.path.endsWith("/status")) json(res, 200, podObject("victim", "prod", "u-7"));
      else json(res, 200, podObject("demo-0", "prod", "u-1"));
    });
    // The virtual kubelet's loop: keep the answer as the pod, fall back to what it had on an error.
    let pod: KubeObject = POD;
    pod = await patchHibernateState(api.clients, pod, true).catch(() => pod);
    pod = await writePodStatus(api.clients, pod, { phase: "Pending", conditions: [] }).catch(() => pod);
    await finishPodDeletion(api.clients, pod).catch(() => undefined);
    expect(api.peer.seen.map((r) => `${r.method} ${r.path.split("?")[0] ?? ""}`)).toEqual([
      "PATCH /api/v1/namespaces/prod/pods/demo-0",
      "PATCH /api/v1/namespaces/prod/pods/demo-0/status",
      "DELETE /api/v1/namespaces/prod/pods/demo-0",
    ]);
  });
});

describe("releaseSeat trusts a flag answer only for the same pod", () => {
  it("another name, namespace or kind rejects and sends no DELETE", async () => {
    for (const [what, body, path] of POD_ANSWERS.filter(([what]) => what !== "another uid")) {
      api.handle(answering(body));
      expect([what, await unexpected(releaseSeat(api.clients, POD)).then(({ code, path: at }) => [code, at])]).toEqual([
        what,
        ["ERR_UNEXPECTED_OBJECT", path],
      ]);
      expect(api.peer.seen.map((r) => r.method)).toEqual(["PATCH"]);
    }
  });

  it("the same name with another uid is a newer pod: already gone, no DELETE", async () => {
    api.handle(answering(podObject("demo-0", "prod", "u-2")));
    expect(await releaseSeat(api.clients, POD)).toEqual({ flagged: false, deletion: "already-gone" });
    expect(api.peer.seen.map((r) => r.method)).toEqual(["PATCH"]);
  });

  it("the same name without a uid is not a pod at all", async () => {
    api.handle(answering({ ...podObject("demo-0", "prod", "u-1"), metadata: { name: "demo-0", namespace: "prod" } }));
    expect((await unexpected(releaseSeat(api.clients, POD))).path).toBe("metadata.uid");
    expect(api.peer.seen.map((r) => r.method)).toEqual(["PATCH"]);
  });

  it("a DELETE answered with another pod rejects", async () => {
    const flagged = { metadata: { ...POD.metadata, annotations: { [Annotation.KeepSnapshotOnDelete]: "true" } } };
    api.handle(answering(podObject("other", "prod", "u-1")));
    expect((await unexpected(releaseSeat(api.clients, flagged))).path).toBe("metadata.name");
    expect(api.peer.seen.map((r) => r.method)).toEqual(["DELETE"]);
    // A Status (the pod is gone) and the pod itself are fine.
    api.handle(answering({ kind: "Status", apiVersion: "v1", status: "Success", metadata: {} }));
    expect(await releaseSeat(api.clients, flagged)).toEqual({ flagged: true, deletion: "deleted" });
  });
});

/** What a hostile server answers instead of the CocoonSet prod/sandbox. */
const SET_ANSWERS: readonly (readonly [what: string, body: unknown, path: string])[] = [
  ["another set's name", setObject("other", "prod", "s-1"), "metadata.name"],
  ["another namespace", setObject("sandbox", "kube-system", "s-1"), "metadata.namespace"],
  ["a CocoonHibernation", { ...setObject("sandbox", "prod", "s-1"), kind: "CocoonHibernation" }, "kind"],
  ["another apiVersion", { ...setObject("sandbox", "prod", "s-1"), apiVersion: "cocoonset.cocoonstack.io/v2" }, "apiVersion"],
  ["a Pod", podObject("sandbox", "prod", "s-1"), "kind"],
  ["[1,2,3]", [1, 2, 3], ""],
  ['"x"', "x", ""],
  ["null", null, ""],
  ["{}", {}, "kind"],
];

describe("the typed clients check the answer's identity, not only its shape", () => {
  const ref = { namespace: "prod", name: "sandbox" };
  const calls: readonly (readonly [verb: string, method: string, call: () => Promise<unknown>])[] = [
    ["get", "GET", () => api.clients.cocoonSets.get(ref)],
    ["patch", "PATCH", () => api.clients.cocoonSets.patch(ref, { spec: { suspend: true } })],
    ["patchStatus", "PATCH", () => api.clients.cocoonSets.patchStatus(ref, { status: { phase: "Ready" } })],
    [
      "patch (mutation)",
      "PATCH",
      () => api.clients.cocoonSets.patch(setObject("sandbox", "prod", "s-1") as never, (c) => void (c.metadata.labels = { a: "b" })),
    ],
    ["delete", "DELETE", () => api.clients.cocoonSets.delete(ref)],
  ];
  it.each(calls)("%s: every wrong 200 is ERR_UNEXPECTED_OBJECT after one request", async (_verb, method, call) => {
    for (const [what, body, path] of SET_ANSWERS) {
      api.handle(answering(body));
      expect([what, await unexpected(call()).then(({ code, path: at }) => [code, at])]).toEqual([what, ["ERR_UNEXPECTED_OBJECT", path]]);
      expect(api.peer.seen.map((r) => r.method)).toEqual([method]);
    }
  });

  it("a patch by object answered with another uid rejects", async () => {
    api.handle(answering(setObject("sandbox", "prod", "s-2")));
    const set = setObject("sandbox", "prod", "s-1") as never;
    expect((await unexpected(api.clients.cocoonSets.patch(set, (c) => void (c.metadata.labels = { a: "b" })))).path).toBe("metadata.uid");
  });

  it("create checks the answer's kind and namespace, and its name when one was asked for", async () => {
    const input = {
      apiVersion: API_VERSION,
      kind: "CocoonSet",
      metadata: { name: "sandbox", namespace: "prod" },
      spec: { agent: { image: "x:1" } },
    } as const;
    api.handle(answering({ ...setObject("other", "prod", "s-1"), spec: input.spec }));
    expect((await unexpected(api.clients.cocoonSets.create(input))).path).toBe("metadata.name");
    api.handle(answering({ ...setObject("sandbox", "kube-system", "s-1"), spec: input.spec }));
    expect((await unexpected(api.clients.cocoonSets.create(input))).path).toBe("metadata.namespace");
    expect(api.peer.seen.map((r) => r.method)).toEqual(["POST"]);
  });
});

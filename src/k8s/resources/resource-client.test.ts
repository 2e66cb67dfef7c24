import type { CustomObjectsApi } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { isConflict, isNotFound } from "../api-errors.js";
import { apiError, fakeApi, type Responder } from "../fakes.test-util.js";
import { cocoonHibernationClient, cocoonSetClient } from "./cocoon-clients.js";
import { isUnexpectedObjectError } from "./unexpected-object-error.js";

const API = "cocoonset.cocoonstack.io/v1";
const G = { group: "cocoonset.cocoonstack.io", version: "v1", plural: "cocoonsets" };
const MERGE = "application/merge-patch+json";
const JSON_PATCH = "application/json-patch+json";
const REF = { namespace: "demo", name: "sandbox" };
const served = (extra: Record<string, unknown> = {}) => ({
  apiVersion: API,
  kind: "CocoonSet",
  metadata: { name: "sandbox", namespace: "demo", resourceVersion: "7", uid: "u-1" },
  spec: { agent: { image: "x:1" } },
  ...extra,
});
/** A CocoonSet as a user writes it. */
const INPUT = {
  apiVersion: API,
  kind: "CocoonSet",
  metadata: { name: "sandbox", namespace: "demo" },
  spec: { agent: { image: "x:1" } },
} as const;
const STATUS_GONE = { kind: "Status", apiVersion: "v1", status: "Success", details: { name: "sandbox" } };

function setup(respond: Responder = () => served()) {
  const { api, calls } = fakeApi<CustomObjectsApi>(respond);
  return { sets: cocoonSetClient({ customObjects: api }), api, calls };
}
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe("cocoonSetClient", () => {
  it("get: one request, the result parsed with the CRD's defaults", async () => {
    const { sets, calls } = setup();
    const set = await sets.get(REF);
    expect(calls.map((c) => [c.method, c.params])).toEqual([["getNamespacedCustomObject", { ...G, ...REF }]]);
    expect(set.spec?.agent).toEqual({ image: "x:1", replicas: 0, mode: "clone", os: "linux", backend: "cloud-hypervisor" });
  });

  it("get: an object that does not parse rejects with UnexpectedObjectError", async () => {
    const { sets } = setup(() => served({ spec: { agent: { image: "x:1", replicas: 2 ** 31 } } }));
    const err = await rejection(sets.get(REF));
    expect(isUnexpectedObjectError(err) && [err.objectName, err.path]).toEqual(["sandbox", "spec.agent.replicas"]);
  });

  it("get: the server's 404 passes through", async () => {
    const { sets } = setup(() => {
      throw apiError(404, "NotFound");
    });
    expect(isNotFound(await rejection(sets.get(REF)))).toBe(true);
  });

  it.each([
    ["no name", { namespace: "demo", name: "" }],
    ["no namespace", { namespace: "", name: "sandbox" }],
  ])("get: %s sends nothing", async (_case, ref) => {
    const { sets, calls } = setup();
    const err = await rejection(sets.get(ref));
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT") && err.message).toBe("cannot get a CocoonSet without a namespace and a name");
    expect(calls).toHaveLength(0);
  });

  it("an aborted signal sends nothing and rejects with its reason", async () => {
    const { sets, calls } = setup();
    const reason = new Error("stop");
    const signal = AbortSignal.abort(reason);
    for (const call of [
      sets.get(REF, { signal }),
      sets.list({ signal }),
      sets.patch(REF, { spec: {} }, { signal }),
      sets.delete(REF, { signal }),
    ]) {
      expect(await rejection(call)).toBe(reason);
    }
    expect(calls).toHaveLength(0);
  });

  it("list: one namespace, a label map as a selector, paging", async () => {
    const { sets, calls } = setup(() => ({ apiVersion: API, kind: "CocoonSetList", metadata: { continue: "c2" }, items: [served()] }));
    const page = await sets.list({ namespace: "demo", labelSelector: { app: "a", tier: "b" }, limit: 1, continue: "c1" });
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ["listNamespacedCustomObject", { ...G, namespace: "demo", labelSelector: "app=a,tier=b", limit: 1, _continue: "c1" }],
    ]);
    expect(page.metadata?.continue).toBe("c2");
    expect(page.items[0]?.spec?.nodePool).toBe("default");
  });

  it("list: all namespaces without a namespace; a selector text as it is", async () => {
    const { sets, calls } = setup(() => ({ apiVersion: API, kind: "CocoonSetList", metadata: {}, items: [] }));
    await sets.list({ labelSelector: "app!=b", fieldSelector: "metadata.name=x" });
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ["listClusterCustomObject", { ...G, labelSelector: "app!=b", fieldSelector: "metadata.name=x" }],
    ]);
  });

  it("list: an empty namespace sends nothing", async () => {
    const { sets, calls } = setup();
    expect(isCocoonError(await rejection(sets.list({ namespace: "" })), "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it("create: sends the input as it is to its namespace", async () => {
    const { sets, calls } = setup();
    const set = await sets.create(INPUT);
    expect(calls.map((c) => [c.method, c.params])).toEqual([["createNamespacedCustomObject", { ...G, namespace: "demo", body: INPUT }]]);
    expect(set.metadata.uid).toBe("u-1");
  });

  it.each([
    ["without a namespace", { metadata: { name: "sandbox" } }, "cannot create a CocoonSet without metadata.namespace"],
    ["of another kind", { kind: "CocoonHibernation" }, 'cannot create kind "CocoonHibernation" through the CocoonSet client'],
  ])("create: an object %s sends nothing", async (_case, change, message) => {
    const { sets, calls } = setup();
    const input = { ...INPUT, ...change };
    const err = await rejection(sets.create(input as Parameters<typeof sets.create>[0]));
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT") && err.message).toBe(message);
    expect(calls).toHaveLength(0);
  });

  it("patch by reference: an object is a merge patch, an array a JSON patch, each sent as given", async () => {
    const { sets, calls } = setup();
    await sets.patch(REF, { spec: { suspend: true } });
    await sets.patch(REF, [{ op: "replace", path: "/spec/suspend", value: true }]);
    await sets.patchStatus(REF, { status: { phase: "Running" } });
    expect(calls.map((c) => [c.method, c.contentType, c.wireBody])).toEqual([
      ["patchNamespacedCustomObject", MERGE, '{"spec":{"suspend":true}}'],
      ["patchNamespacedCustomObject", JSON_PATCH, '[{"op":"replace","path":"/spec/suspend","value":true}]'],
      ["patchNamespacedCustomObjectStatus", MERGE, '{"status":{"phase":"Running"}}'],
    ]);
    expect(calls[0]?.params).toEqual({ ...G, ...REF, body: { spec: { suspend: true } } });
  });

  it("patch with a mutation: Go's merge-patch bytes, the result parsed", async () => {
    const { sets, calls } = setup((method) =>
      served(method === "getNamespacedCustomObject" ? {} : { spec: { agent: { image: "x:1" }, suspend: true } }),
    );
    const set = await sets.get(REF);
    calls.length = 0;
    const patched = await sets.patch(set, (draft) => void (draft.spec!.suspend = true), { optimisticLock: true });
    expect(calls.map((c) => [c.method, c.contentType, c.wireBody])).toEqual([
      ["patchNamespacedCustomObject", MERGE, '{"metadata":{"resourceVersion":"7"},"spec":{"suspend":true}}'],
    ]);
    expect(patched.spec?.suspend).toBe(true);
  });

  it("patch with a mutation that changes nothing sends nothing and returns the object", async () => {
    const { sets, calls } = setup();
    const set = await sets.get(REF);
    calls.length = 0;
    expect(await sets.patchStatus(set, (draft) => void (draft.metadata.labels = {}))).toBe(set);
    expect(calls).toHaveLength(0);
  });

  it("patch: a mutation needs the object, a body a reference; neither mix sends anything", async () => {
    const { sets, calls } = setup();
    const set = await sets.get(REF);
    calls.length = 0;
    const viaRef = (sets.patch as (target: object, change: unknown) => Promise<unknown>)(REF, () => undefined);
    const viaObject = (sets.patch as (target: object, change: unknown) => Promise<unknown>)(set, { spec: {} });
    expect(isCocoonError(await rejection(viaRef), "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(isCocoonError(await rejection(viaObject), "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it("patch: the server's answer is parsed too", async () => {
    const { sets } = setup(() => served({ status: { phase: "Sleeping" } }));
    const err = await rejection(sets.patchStatus(REF, { status: { phase: "Sleeping" } }));
    expect(isUnexpectedObjectError(err) && err.path).toBe("status.phase");
  });

  it("delete: a Status (gone) resolves to undefined; preconditions and propagation go in the body", async () => {
    const { sets, calls } = setup(() => STATUS_GONE);
    const options = { preconditions: { uid: "u-1" }, propagationPolicy: "Foreground", gracePeriodSeconds: 0 } as const;
    expect(await sets.delete(REF, options)).toBeUndefined();
    expect(await sets.delete(REF)).toBeUndefined();
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      [
        "deleteNamespacedCustomObject",
        { ...G, ...REF, body: { preconditions: { uid: "u-1" }, propagationPolicy: "Foreground", gracePeriodSeconds: 0 } },
      ],
      ["deleteNamespacedCustomObject", { ...G, ...REF }],
    ]);
  });

  it("delete: an object held by finalizers comes back parsed; a failed precondition is a conflict", async () => {
    const held = served({ metadata: { ...served().metadata, deletionTimestamp: "2026-01-01T00:00:00Z", finalizers: ["x.io/f"] } });
    expect((await setup(() => held).sets.delete(REF))?.metadata.finalizers).toEqual(["x.io/f"]);
    const { sets } = setup(() => {
      throw apiError(409, "Conflict");
    });
    expect(isConflict(await rejection(sets.delete(REF, { preconditions: { uid: "old" } })))).toBe(true);
  });
});

describe("cocoonHibernationClient", () => {
  it("reads cocoonhibernations with its own schema", async () => {
    const { api, calls } = fakeApi<CustomObjectsApi>(() => ({
      apiVersion: API,
      kind: "CocoonHibernation",
      metadata: { name: "nap", namespace: "demo" },
      spec: { podRef: { name: "sandbox-0" }, desire: "Hibernate" },
    }));
    const nap = await cocoonHibernationClient({ customObjects: api }).get({ namespace: "demo", name: "nap" });
    expect(nap.spec?.desire).toBe("Hibernate");
    expect(calls[0]?.params).toEqual({ ...G, plural: "cocoonhibernations", namespace: "demo", name: "nap" });
  });

  it("refuses a CocoonSet where a CocoonHibernation belongs", async () => {
    const { api } = fakeApi<CustomObjectsApi>(() => served());
    const err = await rejection(cocoonHibernationClient({ customObjects: api }).get({ namespace: "demo", name: "nap" }));
    expect(isUnexpectedObjectError(err) && err.message).toBe(
      'get CocoonHibernation demo/nap: the API server answered with CocoonSet demo/sandbox that is not the object asked for: kind: is "CocoonSet", not "CocoonHibernation"',
    );
  });
});

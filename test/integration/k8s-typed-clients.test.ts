import { PatchStrategy } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, GROUP, Kind, Plural, VERSION, type CocoonSetInput } from "../../src/apis/v1/index.js";
import { isCocoonError } from "../../src/errors.js";
import { callOptions } from "../../src/k8s/call-options.js";
import { isAlreadyExists, isConflict, isNotFound, isUnexpectedObjectError } from "../../src/k8s/index.js";
import { closeProxiedSuite, openProxiedSuite, type ProxiedSuite } from "./k8s-counting-proxy.js";
import { createTestNamespace } from "./helpers.js";

const SETS = `/apis/${GROUP}/${VERSION}`;
const MERGE = "application/merge-patch+json";
const JSON_PATCH = "application/json-patch+json";

let suite: ProxiedSuite;
let counter = 0;

beforeAll(async () => {
  suite = await openProxiedSuite("k8s-typed");
});

afterAll(() => closeProxiedSuite(suite));

const input = (name: string, namespace = suite.ns, labels: Record<string, string> = {}): CocoonSetInput => ({
  apiVersion: API_VERSION,
  kind: Kind.CocoonSet,
  metadata: { name, namespace, labels },
  spec: { agent: { image: "ghcr.io/cocoonstack/agent:1.4" } },
});
const nextName = (prefix = "set") => `${prefix}-${++counter}`;
/** The recorded requests as `METHOD path [content type]`, then forgets them. */
function wire(): string[] {
  const seen = suite.proxy.requests.map((r) => `${r.method} ${r.path}${r.method === "PATCH" ? ` ${r.contentType ?? ""}` : ""}`);
  suite.proxy.reset();
  return seen;
}
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

/** Writes `status.observedGeneration` as the exact text `value`, which no JavaScript number holds, bypassing the typed clients. */
async function writeObservedGeneration(plural: Plural, name: string, value: string): Promise<void> {
  await suite.admin.customObjects.patchNamespacedCustomObjectStatus(
    { group: GROUP, version: VERSION, plural, namespace: suite.ns, name, body: {} },
    callOptions({ contentType: PatchStrategy.MergePatch, body: `{"status":{"observedGeneration":${value}}}` }),
  );
}

describe("the typed CocoonSet client on a real apiserver", () => {
  it("create, get, list, patch (merge, JSON, mutation), patchStatus and delete: one request each, every result typed", async () => {
    const name = nextName();
    suite.proxy.reset();
    const sets = suite.viaProxy.cocoonSets;
    const created = await sets.create(input(name, suite.ns, { suite: "verbs" }));
    expect(created.spec?.agent.mode).toBe("clone"); // the server's default, read through the schema
    expect(created.metadata.generation).toBe(1);
    const read = await sets.get({ namespace: suite.ns, name });
    expect(read.metadata.uid).toBe(created.metadata.uid);
    const listed = await sets.list({ namespace: suite.ns, labelSelector: { suite: "verbs" } });
    expect(listed.items.map((s) => s.metadata.name)).toEqual([name]);
    let set = await sets.patch({ namespace: suite.ns, name }, { spec: { suspend: true } });
    expect([set.spec?.suspend, set.metadata.generation]).toEqual([true, 2]);
    set = await sets.patch({ namespace: suite.ns, name }, [{ op: "replace", path: "/spec/suspend", value: false }]);
    expect([set.spec?.suspend, set.metadata.generation]).toEqual([false, 3]);
    set = await sets.patchStatus({ namespace: suite.ns, name }, { status: { phase: "Suspending" } });
    expect(set.status?.phase).toBe("Suspending");
    set = await sets.patch(set, (draft) => void (draft.metadata.labels = { ...draft.metadata.labels, team: "agents" }), {
      optimisticLock: true,
    });
    expect(set.metadata.labels).toEqual({ suite: "verbs", team: "agents" });
    set = await sets.patchStatus(set, (draft) => void (draft.status = { ...draft.status, phase: "Suspended" }));
    expect(set.status?.phase).toBe("Suspended");
    expect(await sets.delete({ namespace: suite.ns, name }, { preconditions: { uid: set.metadata.uid } })).toBeUndefined();
    expect(wire()).toEqual([
      `POST ${SETS}/namespaces/${suite.ns}/cocoonsets`,
      `GET ${SETS}/namespaces/${suite.ns}/cocoonsets/${name}`,
      `GET ${SETS}/namespaces/${suite.ns}/cocoonsets?labelSelector=suite%3Dverbs`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonsets/${name} ${MERGE}`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonsets/${name} ${JSON_PATCH}`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonsets/${name}/status ${MERGE}`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonsets/${name} ${MERGE}`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonsets/${name}/status ${MERGE}`,
      `DELETE ${SETS}/namespaces/${suite.ns}/cocoonsets/${name}`,
    ]);
    expect(isNotFound(await rejection(suite.admin.cocoonSets.get({ namespace: suite.ns, name })))).toBe(true);
  });

  it("lists across namespaces when no namespace is given", async () => {
    const other = await createTestNamespace("k8s-typed-other");
    const [a, b] = [nextName(), nextName()];
    // The label is this run's own: the matrix runs the suite again and again on one shared control plane.
    const across = `across-${suite.ns}`;
    await suite.admin.cocoonSets.create(input(a, suite.ns, { suite: across }));
    await suite.admin.cocoonSets.create(input(b, other, { suite: across }));
    suite.proxy.reset();
    const all = await suite.viaProxy.cocoonSets.list({ labelSelector: `suite=${across}` });
    expect(all.items.map((s) => `${s.metadata.namespace ?? ""}/${s.metadata.name ?? ""}`).sort()).toEqual(
      [`${suite.ns}/${a}`, `${other}/${b}`].sort(),
    );
    expect(all.kind).toBe(Kind.CocoonSetList);
    const one = await suite.viaProxy.cocoonSets.list({ namespace: other, labelSelector: `suite=${across}` });
    expect(one.items.map((s) => s.metadata.name)).toEqual([b]);
    expect(wire()).toEqual([
      `GET ${SETS}/cocoonsets?labelSelector=suite%3D${across}`,
      `GET ${SETS}/namespaces/${other}/cocoonsets?labelSelector=suite%3D${across}`,
    ]);
  });

  it("a stored set that the schema refuses rejects with UnexpectedObjectError, on get, list and patch", async () => {
    const name = nextName("huge");
    await suite.admin.cocoonSets.create(input(name, suite.ns, { suite: "huge" }));
    await writeObservedGeneration(Plural.CocoonSet, name, "9007199254740993"); // a valid int64, beyond 2^53
    const expected = (err: unknown) => {
      if (!isUnexpectedObjectError(err)) throw err;
      expect([err.code, err.kind, err.namespace, err.objectName, err.path]).toEqual([
        "ERR_UNEXPECTED_OBJECT",
        Kind.CocoonSet,
        suite.ns,
        name,
        "status.observedGeneration",
      ]);
      return err.message;
    };
    expect(expected(await rejection(suite.viaProxy.cocoonSets.get({ namespace: suite.ns, name })))).toBe(
      `CocoonSet ${suite.ns}/${name} from the API server does not parse: status.observedGeneration: Invalid input: expected int, received number (and 1 more)`,
    );
    expect(expected(await rejection(suite.viaProxy.cocoonSets.list({ namespace: suite.ns, labelSelector: { suite: "huge" } })))).toBe(
      `CocoonSet ${suite.ns}/${name} (item 0 of a list) from the API server does not parse: status.observedGeneration: Invalid input: expected int, received number (and 1 more)`,
    );
    expected(await rejection(suite.viaProxy.cocoonSets.patch({ namespace: suite.ns, name }, { metadata: { labels: { seen: "yes" } } })));
    // The patch itself landed: only reading its answer failed.
    expect(
      await suite.admin.customObjects.getNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        plural: Plural.CocoonSet,
        namespace: suite.ns,
        name,
      }),
    ).toMatchObject({
      metadata: { labels: { seen: "yes" } },
    });
  });

  it("the server's 404, 409 and AlreadyExists pass through for isNotFound, isConflict and isAlreadyExists", async () => {
    const sets = suite.viaProxy.cocoonSets;
    const name = nextName();
    expect(isNotFound(await rejection(sets.get({ namespace: suite.ns, name })))).toBe(true);
    expect(isNotFound(await rejection(sets.delete({ namespace: suite.ns, name })))).toBe(true);
    expect(isNotFound(await rejection(sets.patch({ namespace: suite.ns, name }, { spec: { suspend: true } })))).toBe(true);
    const set = await sets.create(input(name));
    expect(isAlreadyExists(await rejection(sets.create(input(name))))).toBe(true);
    const wrongUid = await rejection(
      sets.delete({ namespace: suite.ns, name }, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } }),
    );
    expect(isConflict(wrongUid)).toBe(true);
    await sets.patch({ namespace: suite.ns, name }, { metadata: { labels: { moved: "on" } } });
    const stale = await rejection(sets.patch(set, (draft) => void (draft.metadata.labels = { late: "yes" }), { optimisticLock: true }));
    expect(isConflict(stale)).toBe(true);
    const gone = await rejection(
      sets.delete({ namespace: suite.ns, name }, { preconditions: { resourceVersion: set.metadata.resourceVersion } }),
    );
    expect(isConflict(gone)).toBe(true);
  });

  it("sends nothing for a mutation that changes nothing, a reference without a name, or an aborted signal", async () => {
    const name = nextName();
    const set = await suite.admin.cocoonSets.create(input(name));
    suite.proxy.reset();
    const sets = suite.viaProxy.cocoonSets;
    expect(await sets.patch(set, (draft) => void (draft.metadata.labels = {}))).toBe(set);
    expect(isCocoonError(await rejection(sets.get({ namespace: suite.ns, name: "" })), "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(isCocoonError(await rejection(sets.create({ ...input(name), metadata: { name } })), "ERR_INVALID_ARGUMENT")).toBe(true);
    const reason = new Error("shutting down");
    expect(await rejection(sets.delete({ namespace: suite.ns, name }, { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(suite.proxy.requests).toEqual([]);
    expect((await suite.admin.cocoonSets.get({ namespace: suite.ns, name })).metadata.resourceVersion).toBe(set.metadata.resourceVersion);
  });

  it("delete: the object comes back while finalizers hold it, propagation and grace reach the server", async () => {
    const name = nextName();
    await suite.admin.cocoonSets.create({ ...input(name), metadata: { name, namespace: suite.ns, finalizers: ["example.com/hold"] } });
    suite.proxy.reset();
    const held = await suite.viaProxy.cocoonSets.delete(
      { namespace: suite.ns, name },
      { propagationPolicy: "Foreground", gracePeriodSeconds: 0 },
    );
    expect(held?.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(held?.metadata.finalizers?.slice().sort()).toEqual(["example.com/hold", "foregroundDeletion"]);
    expect(JSON.parse(suite.proxy.requests[0]?.body ?? "")).toEqual({ propagationPolicy: "Foreground", gracePeriodSeconds: 0 });
    await suite.admin.cocoonSets.patch({ namespace: suite.ns, name }, [{ op: "remove", path: "/metadata/finalizers" }]);
    expect(isNotFound(await rejection(suite.admin.cocoonSets.get({ namespace: suite.ns, name })))).toBe(true);
  });
});

describe("the typed CocoonHibernation client on a real apiserver", () => {
  it("create, get, list, patchStatus and delete, typed; a stored object the schema refuses is an UnexpectedObjectError", async () => {
    const name = nextName("nap");
    const naps = suite.viaProxy.cocoonHibernations;
    suite.proxy.reset();
    const nap = await naps.create({
      apiVersion: API_VERSION,
      kind: Kind.CocoonHibernation,
      metadata: { name, namespace: suite.ns },
      spec: { podRef: { name: "sandbox-0" }, desire: "Hibernate" },
    });
    expect(nap.spec?.desire).toBe("Hibernate");
    expect((await naps.get({ namespace: suite.ns, name })).spec?.podRef.name).toBe("sandbox-0");
    expect((await naps.list({ namespace: suite.ns })).items.map((n) => n.metadata.name)).toEqual([name]);
    expect((await naps.patchStatus(nap, (draft) => void (draft.status = { phase: "Hibernating" }))).status?.phase).toBe("Hibernating");
    expect(wire()).toEqual([
      `POST ${SETS}/namespaces/${suite.ns}/cocoonhibernations`,
      `GET ${SETS}/namespaces/${suite.ns}/cocoonhibernations/${name}`,
      `GET ${SETS}/namespaces/${suite.ns}/cocoonhibernations`,
      `PATCH ${SETS}/namespaces/${suite.ns}/cocoonhibernations/${name}/status ${MERGE}`,
    ]);
    await writeObservedGeneration(Plural.CocoonHibernation, name, "-9007199254740993");
    const err = await rejection(naps.get({ namespace: suite.ns, name }));
    expect(isUnexpectedObjectError(err) && [err.kind, err.path]).toEqual([Kind.CocoonHibernation, "status.observedGeneration"]);
    expect(await naps.delete({ namespace: suite.ns, name })).toBeUndefined();
  });
});

import { PatchStrategy } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, GROUP, Kind, Plural, VERSION, type CocoonSetInput } from "../../src/apis/v1/index.js";
import { callOptions } from "../../src/k8s/call-options.js";
import {
  createClients,
  statusCode,
  watchCocoonHibernations,
  watchCocoonPods,
  watchCocoonSets,
  type WatchEvent,
} from "../../src/k8s/index.js";
import { Annotation, Label, TOLERATION_KEY, readHibernateState } from "../../src/meta/index.js";
import { closeProxiedSuite, openProxiedSuite, startTcpCounter, adminKubeConfigAt, type ProxiedSuite } from "./k8s-counting-proxy.js";
import { createTestNamespace, getControlPlane } from "./helpers.js";
import { recordWatch } from "./watch-recorder.js";

const SETS = `/apis/${GROUP}/${VERSION}`;

let suite: ProxiedSuite;
let other: string;

beforeAll(async () => {
  suite = await openProxiedSuite("k8s-watch");
  other = await createTestNamespace("k8s-watch-other");
});

afterAll(() => closeProxiedSuite(suite));

const setInput = (name: string, namespace = suite.ns): CocoonSetInput => ({
  apiVersion: API_VERSION,
  kind: Kind.CocoonSet,
  metadata: { name, namespace },
  spec: { agent: { image: "ghcr.io/cocoonstack/agent:1.4" } },
});

/** Writes `status.observedGeneration` as the exact text `value` (beyond 2^53: the schema refuses it), bypassing the typed clients. */
async function writeObservedGeneration(plural: Plural, name: string, value: string): Promise<void> {
  await suite.admin.customObjects.patchNamespacedCustomObjectStatus(
    { group: GROUP, version: VERSION, plural, namespace: suite.ns, name, body: {} },
    callOptions({ contentType: PatchStrategy.MergePatch, body: `{"status":{"observedGeneration":${value}}}` }),
  );
}

/** The proxy's requests as `METHOD path`, then forgets them. */
function wire(): string[] {
  const seen = suite.proxy.requests.map((r) => `${r.method} ${r.path}`);
  suite.proxy.reset();
  return seen;
}

const isType =
  (type: WatchEvent<unknown>["type"], name?: string) =>
  (event: WatchEvent<unknown>): boolean =>
    event.type === type &&
    (name === undefined || ("object" in event && (event.object as { metadata?: { name?: string } }).metadata?.name === name));

describe("watchCocoonSets on a real apiserver", () => {
  it("lists, then reports every change typed; an object that does not parse is an event; the signal stops it", async () => {
    await suite.admin.cocoonSets.create(setInput("before"));
    await suite.admin.cocoonSets.create(setInput("elsewhere", other));
    suite.proxy.reset();
    const controller = new AbortController();
    const watch = watchCocoonSets(suite.viaProxy, { namespace: suite.ns, signal: controller.signal, timeoutSeconds: 120 });
    const rec = recordWatch(watch);
    await rec.until(isType("synced"));
    expect(rec.lines()).toEqual([`added ${suite.ns}/before`, "synced"]);
    await expect.poll(() => suite.proxy.requests.length).toBe(2); // the watch request follows the synced event
    const [listRequest, watchRequest] = wire();
    expect(listRequest).toBe(`GET ${SETS}/namespaces/${suite.ns}/cocoonsets`);
    expect(watchRequest).toBe(
      `GET ${SETS}/namespaces/${suite.ns}/cocoonsets?watch=true&allowWatchBookmarks=true&timeoutSeconds=120&resourceVersion=${watch.resourceVersion}`,
    );
    const added = rec.events[0];
    expect(added?.type === "added" && [added.object.spec?.agent.mode, added.object.metadata.generation]).toEqual(["clone", 1]);

    const ref = { namespace: suite.ns, name: "during" };
    await suite.admin.cocoonSets.create(setInput("during"));
    await suite.admin.cocoonSets.patch(ref, { spec: { suspend: true } });
    await suite.admin.cocoonSets.patchStatus(ref, { status: { phase: "Suspending" } });
    await suite.admin.cocoonSets.delete(ref);
    await writeObservedGeneration(Plural.CocoonSet, "before", "9007199254740993"); // an int64 no JavaScript number holds
    await rec.until(isType("invalid", "before"));
    expect(watch.get({ namespace: suite.ns, name: "before" })).toBeUndefined();
    await writeObservedGeneration(Plural.CocoonSet, "before", "3");
    await rec.until(isType("modified", "before"));
    expect(watch.get({ namespace: suite.ns, name: "before" })?.status?.observedGeneration).toBe(3);
    await writeObservedGeneration(Plural.CocoonSet, "before", "-9007199254740993");
    await suite.admin.cocoonSets.delete({ namespace: suite.ns, name: "before" });
    await rec.until(isType("invalid"), { count: 3 });
    expect(rec.lines(2)).toEqual([
      `added ${suite.ns}/during`,
      `modified ${suite.ns}/during`,
      `modified ${suite.ns}/during`,
      `deleted ${suite.ns}/during`,
      `invalid(modified) ${suite.ns}/before status.observedGeneration`,
      `modified ${suite.ns}/before`,
      `invalid(modified) ${suite.ns}/before status.observedGeneration`,
      `invalid(deleted) ${suite.ns}/before status.observedGeneration`,
    ]);
    const states = rec.events
      .slice(2, 5)
      .map((e) => e.type !== "invalid" && "object" in e && [e.object.metadata.generation, e.object.spec?.suspend, e.object.status?.phase]);
    expect(states).toEqual([
      [1, undefined, undefined],
      [2, true, undefined],
      [2, true, "Suspending"],
    ]);
    const invalid = rec.events[6];
    expect(invalid?.type === "invalid" && [invalid.error.code, invalid.error.kind, invalid.error.objectName]).toEqual([
      "ERR_UNEXPECTED_OBJECT",
      Kind.CocoonSet,
      "before",
    ]);
    expect(watch.list()).toEqual([]);

    controller.abort();
    await rec.done;
    await suite.admin.cocoonSets.create(setInput("after"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([rec.events.length, wire()]).toEqual([10, []]);
  });

  it("resumes from a bookmark's resource version when the server closes the watch", async () => {
    const ns = await createTestNamespace("k8s-watch-quiet");
    const watches = () => suite.proxy.requests.filter((r) => r.path.includes("watch=true"));
    const resumedFrom = (n: number) => new URL(`http://x${watches()[n]?.path ?? ""}`).searchParams.get("resourceVersion");
    suite.proxy.reset();
    const controller = new AbortController();
    const watch = watchCocoonSets(suite.viaProxy, { namespace: ns, signal: controller.signal, timeoutSeconds: 4 });
    const rec = recordWatch(watch);
    await rec.until(isType("synced"));
    await expect.poll(() => watches().length).toBe(1);
    // A change elsewhere moves the server's resource version on; this namespace stays quiet, so
    // only a bookmark can bring the watch past its list's resource version.
    const elsewhere = await suite.admin.cocoonSets.create(setInput("bookmark-elsewhere", other));
    await expect.poll(() => watches().length, { timeout: 15_000 }).toBe(2);
    controller.abort();
    await rec.done;
    expect(rec.lines()).toEqual(["synced"]);
    const rv = (value: string | null | undefined) => BigInt(value ?? "");
    expect([rv(resumedFrom(1)) > rv(resumedFrom(0)), rv(resumedFrom(1)) >= rv(elsewhere.metadata.resourceVersion)]).toEqual([true, true]);
  });

  it("carries its lists and watches on createClients' keep-alive connections", async () => {
    const counter = await startTcpCounter(getControlPlane().connection);
    const clients = createClients(adminKubeConfigAt(getControlPlane().connection, counter.server));
    try {
      const controller = new AbortController();
      const rec = recordWatch(watchCocoonSets(clients, { namespace: suite.ns, signal: controller.signal, timeoutSeconds: 1 }));
      await rec.until(isType("synced"));
      await new Promise((resolve) => setTimeout(resolve, 3_500)); // three watch requests, each closed by the server after 1 s
      controller.abort();
      await rec.done;
      expect(counter.connections()).toBe(1);
    } finally {
      clients.close();
      await counter.close();
    }
  });
});

describe("watchCocoonHibernations on a real apiserver", () => {
  it("waits out the 429 of a watch cache not ready yet, then reports a hibernation typed, a status that does not parse and a deletion", async () => {
    // The first request ever to a resource starts the server's watch cache of it; until the cache
    // is ready, a list served from it is answered 429 Too Many Requests. The watch retries.
    const controller = new AbortController();
    const rec = recordWatch(watchCocoonHibernations(suite.viaProxy, { namespace: suite.ns, signal: controller.signal }));
    await rec.until(isType("synced"));
    await suite.admin.cocoonHibernations.create({
      apiVersion: API_VERSION,
      kind: Kind.CocoonHibernation,
      metadata: { name: "nap", namespace: suite.ns },
      spec: { podRef: { name: "sandbox-0" }, desire: "Hibernate" },
    });
    await writeObservedGeneration(Plural.CocoonHibernation, "nap", "-9007199254740993");
    await suite.admin.cocoonHibernations.delete({ namespace: suite.ns, name: "nap" });
    await rec.until(isType("invalid"), { count: 2 });
    controller.abort();
    await rec.done;
    const retries = rec.events.flatMap((e) => (e.type === "retrying" ? [[statusCode(e.error), e.delayMs]] : []));
    // client-go's first wait: 800 ms, jittered up to twice that.
    expect(retries.every(([code, delay]) => code === 429 && delay! >= 800 && delay! < 1600) && retries.length <= 1).toBe(true);
    expect(rec.lines().filter((line) => !line.startsWith("retrying"))).toEqual([
      "synced",
      `added ${suite.ns}/nap`,
      `invalid(modified) ${suite.ns}/nap status.observedGeneration`,
      `invalid(deleted) ${suite.ns}/nap status.observedGeneration`,
    ]);
    const added = rec.events.find((e) => e.type === "added");
    expect(added?.type === "added" && [added.object.kind, added.object.spec?.podRef.name, added.object.spec?.desire]).toEqual([
      Kind.CocoonHibernation,
      "sandbox-0",
      "Hibernate",
    ]);
  });
});

describe("watchCocoonPods on a real apiserver", () => {
  const pod = (name: string, nodeName: string, options: { label?: boolean; toleration?: boolean } = {}) => ({
    metadata: { name, ...(options.label === false ? {} : { labels: { [Label.CocoonSet]: "demo" } }) },
    spec: {
      nodeName,
      containers: [{ name: "agent", image: "ghcr.io/cocoonstack/placeholder:latest" }],
      ...(options.toleration === false ? {} : { tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }] }),
    },
  });

  it("sees the labelled pods of its selection, typed the same from the list and from events; a pod without the toleration is invalid", async () => {
    const core = suite.admin.core;
    const namespace = suite.ns;
    await core.createNamespacedPod({ namespace, body: pod("listed", "node-a") });
    await core.createNamespacedPod({ namespace, body: pod("unlabelled", "node-a", { label: false }) });
    await core.createNamespacedPod({ namespace, body: pod("other-node", "node-b") });
    suite.proxy.reset();
    const controller = new AbortController();
    const watch = watchCocoonPods(suite.viaProxy, {
      namespace,
      fieldSelector: "spec.nodeName=node-a",
      signal: controller.signal,
      timeoutSeconds: 60,
    });
    const rec = recordWatch(watch);
    await rec.until(isType("synced"));
    await expect.poll(() => suite.proxy.requests.length).toBe(2);
    expect(wire()).toEqual([
      `GET /api/v1/namespaces/${namespace}/pods?fieldSelector=spec.nodeName%3Dnode-a&labelSelector=cocoonset.cocoonstack.io%2Fname`,
      `GET /api/v1/namespaces/${namespace}/pods?watch=true&labelSelector=cocoonset.cocoonstack.io%2Fname&fieldSelector=spec.nodeName%3Dnode-a&allowWatchBookmarks=true&timeoutSeconds=60&resourceVersion=${watch.resourceVersion}`,
    ]);
    await core.createNamespacedPod({ namespace, body: pod("watched", "node-a") });
    await core.createNamespacedPod({ namespace, body: pod("untolerated", "node-a", { toleration: false }) });
    await core.patchNamespacedPod(
      { namespace, name: "watched", body: { metadata: { annotations: { [Annotation.Hibernate]: "true" } } } },
      callOptions({ contentType: PatchStrategy.MergePatch }),
    );
    await core.deleteNamespacedPod({ namespace, name: "listed", gracePeriodSeconds: 0 });
    await rec.until(isType("deleted"));
    controller.abort();
    await rec.done;
    expect(rec.lines()).toEqual([
      `added ${namespace}/listed`,
      "synced",
      `added ${namespace}/watched`,
      `invalid(added) ${namespace}/untolerated spec.tolerations`,
      `modified ${namespace}/watched`,
      `modified ${namespace}/listed`, // the deletion timestamp (a bound pod), then its removal
      `deleted ${namespace}/listed`,
    ]);
    const objects = rec.events.flatMap((e) => (e.type === "added" || e.type === "modified" ? [e.object] : []));
    expect(objects.map((p) => [p.apiVersion, p.kind, p.spec.nodeName, typeof p.metadata.creationTimestamp])).toEqual([
      ["v1", "Pod", "node-a", "string"],
      ["v1", "Pod", "node-a", "string"],
      ["v1", "Pod", "node-a", "string"],
      ["v1", "Pod", "node-a", "string"],
    ]);
    expect(objects.map((p) => [readHibernateState(p), typeof p.metadata.deletionTimestamp])).toEqual([
      [false, "undefined"],
      [false, "undefined"],
      [true, "undefined"],
      [false, "string"],
    ]);
    const invalid = rec.events[3];
    expect(invalid?.type === "invalid" && invalid.error.message).toBe(
      `Pod ${namespace}/untolerated from the API server does not parse: spec.tolerations: a cocoon pod tolerates virtual-kubelet.io/provider`,
    );
    expect(watch.list().map((p) => p.metadata.name)).toEqual(["watched"]);
  });
});

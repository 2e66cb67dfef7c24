// The typed watch across a relist and an API server restart, on a control plane of this file's
// own: the shared one cannot be restarted. Every object is changed at most once while the watch
// cannot see it, so each change must come out as exactly one event, whatever the path back
// (a resumed watch or a relist).
import { PatchStrategy } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION, Kind } from "../../src/apis/v1/index.js";
import { callOptions } from "../../src/k8s/call-options.js";
import { createClients, watchCocoonPods, watchCocoonSets, type CocoonClients, type WatchEvent } from "../../src/k8s/index.js";
import { Label, TOLERATION_KEY } from "../../src/meta/index.js";
import { startControlPlane, type ControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries } from "./helpers.js";
import { adminKubeConfigAt } from "./k8s-counting-proxy.js";
import { startTcpGate } from "./tcp-gate.js";
import { recordWatch, type WatchRecorder } from "./watch-recorder.js";

let plane: ControlPlane;
let admin: CocoonClients;
const ns = "watch-restart";

beforeAll(async () => {
  plane = await startControlPlane({ binaries: controlPlaneBinaries() });
  admin = createClients(plane.kubeConfig);
  await admin.core.createNamespace({ body: { metadata: { name: ns } } });
});

afterAll(async () => {
  admin.close();
  await plane.stop();
});

/** Three names per group: `<group>-0` … `<group>-2`. */
const group = (prefix: string): string[] => [0, 1, 2].map((i) => `${prefix}-${i}`);
const nameOf = (event: WatchEvent<unknown>): string | undefined =>
  "object" in event ? (event.object as { metadata: { name: string } }).metadata.name : undefined;

/** Each object's changes, in order, from the events (`synced`, `relisted` and `retrying` left out). */
function changesByName(events: readonly WatchEvent<unknown>[]): Record<string, string[]> {
  const changes: Record<string, string[]> = {};
  for (const event of events) {
    const name = nameOf(event);
    if (name !== undefined) (changes[name] ??= []).push(event.type === "invalid" ? `invalid(${event.change})` : event.type);
  }
  return changes;
}

/** The changes each object of each group must show. */
const expected = (groups: [string[], string[]][]): Record<string, string[]> =>
  Object.fromEntries(groups.flatMap(([names, changes]) => names.map((name) => [name, changes])));

/** How a test creates, updates (once) and deletes objects of one kind through the admin clients. */
interface Writes {
  create(names: string[]): Promise<unknown>;
  update(names: string[]): Promise<unknown>;
  remove(names: string[]): Promise<unknown>;
}

/** Creates, updates and deletes the objects of each group, then waits until the watch has seen the deletions; returns the event count. */
async function changeLive(
  writes: Writes,
  rec: WatchRecorder<unknown>,
  groups: { created: string[]; updated: string[]; deleted: string[] },
) {
  const from = rec.events.length;
  await writes.create(groups.created);
  await writes.update(groups.updated);
  await writes.remove(groups.deleted);
  await rec.until((e) => e.type === "deleted", { count: groups.deleted.length, from });
  return rec.events.length;
}

const sets: Writes = {
  create: (names) =>
    Promise.all(
      names.map((name) =>
        admin.cocoonSets.create({
          apiVersion: API_VERSION,
          kind: Kind.CocoonSet,
          metadata: { name, namespace: ns },
          spec: { agent: { image: "agent:1" } },
        }),
      ),
    ),
  update: (names) => Promise.all(names.map((name) => admin.cocoonSets.patch({ namespace: ns, name }, { spec: { suspend: true } }))),
  remove: (names) => Promise.all(names.map((name) => admin.cocoonSets.delete({ namespace: ns, name }))),
};

const pods: Writes = {
  create: (names) =>
    Promise.all(
      names.map((name) =>
        admin.core.createNamespacedPod({
          namespace: ns,
          body: {
            metadata: { name, labels: { [Label.CocoonSet]: "demo" } },
            spec: { containers: [{ name: "agent", image: "placeholder" }], tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }] },
          },
        }),
      ),
    ),
  update: (names) =>
    Promise.all(
      names.map((name) =>
        admin.core.patchNamespacedPod(
          { namespace: ns, name, body: { metadata: { annotations: { touched: "yes" } } } },
          callOptions({ contentType: PatchStrategy.MergePatch }),
        ),
      ),
    ),
  remove: (names) => Promise.all(names.map((name) => admin.core.deleteNamespacedPod({ namespace: ns, name }))),
};

describe("watchCocoonSets across a 410 Gone", () => {
  it("relists after the server forgot its resource version, and reports each missed change once", { timeout: 120_000 }, async () => {
    const live = { created: group("live-new"), updated: group("live-upd"), deleted: group("live-del") };
    const gap = { created: group("gap-new"), updated: group("gap-upd"), deleted: group("gap-del") };
    const after = { created: group("after-new"), updated: group("after-upd"), deleted: group("after-del") };
    const before = [...group("kept"), ...[live, gap, after].flatMap((g) => [...g.updated, ...g.deleted])];
    await sets.create(before);
    const gate = await startTcpGate(plane.server);
    const clients = createClients(adminKubeConfigAt(plane.connection, gate.server));
    const controller = new AbortController();
    try {
      const rec = recordWatch(watchCocoonSets(clients, { namespace: ns, signal: controller.signal, timeoutSeconds: 600 }));
      await rec.until((e) => e.type === "synced");
      const listed = rec.events.length;
      const liveEnd = await changeLive(sets, rec, live);

      // The watch loses its connection and cannot reconnect; meanwhile objects change and the API
      // server restarts. Its new watch cache starts at etcd's current revision, so the resource
      // version the watch resumes from is too old: 410 Gone, and the watch must list again.
      gate.close();
      await sets.create(gap.created);
      await sets.update(gap.updated);
      await sets.remove(gap.deleted);
      await plane.restartApiServer();
      gate.open();
      await rec.until((e) => e.type === "relisted");
      const relisted = rec.events.length;
      await changeLive(sets, rec, after);
      controller.abort();
      await rec.done;

      const changes = (from: number, to?: number) => changesByName(rec.events.slice(from, to));
      const each = (g: typeof live) =>
        expected([
          [g.created, ["added"]],
          [g.updated, ["modified"]],
          [g.deleted, ["deleted"]],
        ]);
      expect(rec.events.slice(0, listed).map((e) => e.type)).toEqual([...before.map(() => "added"), "synced"]);
      expect(changes(listed, liveEnd)).toEqual(each(live));
      expect(changes(liveEnd, relisted)).toEqual(each(gap));
      expect(changes(relisted)).toEqual(each(after));
      expect(rec.events.filter((e) => e.type === "synced" || e.type === "relisted").map((e) => e.type)).toEqual(["synced", "relisted"]);
    } finally {
      controller.abort();
      clients.close();
      await gate.shutdown();
    }
  });
});

describe("watchCocoonPods across an API server restart", () => {
  it("goes on across a restart with no change lost and no fresh list", { timeout: 120_000 }, async () => {
    const live = { created: group("pod-live-new"), updated: group("pod-live-upd"), deleted: group("pod-live-del") };
    const back = { created: group("pod-back-new"), updated: group("pod-back-upd") };
    const afterDeleted = group("pod-after-del");
    await pods.create([...live.updated, ...live.deleted, ...back.updated, ...afterDeleted]);
    const clients = createClients(plane.kubeConfig);
    const controller = new AbortController();
    try {
      const rec = recordWatch(watchCocoonPods(clients, { namespace: ns, signal: controller.signal, timeoutSeconds: 600 }));
      await rec.until((e) => e.type === "synced");
      const listed = rec.events.length;
      const liveEnd = await changeLive(pods, rec, live);

      await plane.restartApiServer();
      // Made at once, while the watch is likely still waiting to retry: whether it resumes or
      // relists, each shows as one event. (A pod's deletion is two events live, the deletion
      // timestamp then the removal, and one through a relist, so deletions wait until it is back.)
      await pods.create(back.created);
      await pods.update(back.updated);
      const backNames = [...back.created, ...back.updated];
      await rec.until((e) => backNames.includes(nameOf(e) ?? ""), { count: backNames.length, from: liveEnd, timeoutMs: 60_000 });
      const backEnd = rec.events.length;
      await changeLive(pods, rec, { created: [], updated: [], deleted: afterDeleted });
      controller.abort();
      await rec.done;

      expect(listed).toBe(live.updated.length + live.deleted.length + back.updated.length + afterDeleted.length + 1);
      expect(changesByName(rec.events.slice(listed, liveEnd))).toEqual(
        expected([
          [live.created, ["added"]],
          [live.updated, ["modified"]],
          [live.deleted, ["modified", "deleted"]],
        ]),
      );
      expect(changesByName(rec.events.slice(liveEnd, backEnd))).toEqual(
        expected([
          [back.created, ["added"]],
          [back.updated, ["modified"]],
        ]),
      );
      expect(changesByName(rec.events.slice(backEnd))).toEqual(expected([[afterDeleted, ["modified", "deleted"]]]));
      // kube-apiserver ends its watches on SIGTERM (the plane's --shutdown-watch-termination-grace-period),
      // so the watch may see a clean close and wait out the restart as a quick close, never a failed
      // request: whether it retries depends on timing. What holds either way: no change is lost or
      // doubled (above), and it never starts over as if new.
      const returning = rec.events.slice(liveEnd, backEnd).map((e) => e.type);
      expect(returning.filter((t) => t === "synced").length).toBe(0);
      expect(rec.events.slice(backEnd).filter((e) => !("object" in e))).toEqual([]);
    } finally {
      controller.abort();
      clients.close();
    }
  });
});

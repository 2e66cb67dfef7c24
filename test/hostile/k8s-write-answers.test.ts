import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/apis/v1/index.js";
import { patchAnnotations, patchHibernatedOnNode, type WatchedPod } from "../../src/k8s/index.js";
import { Annotation } from "../../src/meta/index.js";
import { podObject, startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { json } from "./support/peer.js";

// Issue 34, item 6: what a write resolves to is what Patched<T> declares (the type test is
// src/k8s/patch/patched.test-d.ts): a pod answer is client-node's V1Pod, a cocoon kind's is JSON.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const CREATED = "2026-12-01T00:00:00Z";

describe("a write's answer has the declared shape", () => {
  it("a WatchedPod's patch resolves to a V1Pod: its creationTimestamp is a Date", async () => {
    api.handle((_req, res) => {
      json(res, 200, podObject("demo-0", "prod", "u-1", { annotations: { [Annotation.IP]: "10.88.0.7" } }));
    });
    const watched = podObject("demo-0", "prod", "u-1") as unknown as WatchedPod;
    const written = await patchAnnotations(api.clients, watched, { [Annotation.IP]: "10.88.0.7" });
    expect(api.peer.seen).toHaveLength(1);
    expect(written.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect((written.metadata?.creationTimestamp as Date).toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  it("a CocoonSet's patch resolves to the server's JSON: its creationTimestamp is the string sent", async () => {
    const set = {
      apiVersion: API_VERSION,
      kind: "CocoonSet" as const,
      metadata: { name: "sandbox", namespace: "prod", uid: "s-1", creationTimestamp: CREATED },
    };
    api.handle((_req, res) => {
      json(res, 200, { ...set, metadata: { ...set.metadata, annotations: { "cocoonset.cocoonstack.io/hibernated-on-node": "node-a" } } });
    });
    const written = await patchHibernatedOnNode(api.clients, set, "node-a");
    expect(api.peer.seen).toHaveLength(1);
    expect(written.metadata.creationTimestamp).toBe(CREATED);
  });
});

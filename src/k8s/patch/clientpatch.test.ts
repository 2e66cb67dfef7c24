import type { CoreV1Api, CustomObjectsApi, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { fakeApi, servedAs } from "../fakes.test-util.js";
import { patch, patchStatus } from "./clientpatch.js";

const MERGE = "application/merge-patch+json";
const pod = (): V1Pod => ({
  metadata: {
    name: "p",
    namespace: "ns",
    resourceVersion: "41",
    creationTimestamp: new Date("2024-05-06T07:08:09Z"),
    labels: { app: "a" },
  },
  spec: { containers: [{ name: "c", image: "i" }] },
  status: { phase: "Pending", conditions: [{ type: "Ready", status: "False" }] },
});
const set = () => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "ns", resourceVersion: "7" },
  spec: { agent: { replicas: 1 } },
  status: { phase: "Running" },
});
const fakes = () => {
  const core = fakeApi<CoreV1Api>((_m, params) => ({ ...servedAs(params), served: true }));
  const custom = fakeApi<CustomObjectsApi>((_m, params) => ({ ...servedAs(params), served: true }));
  return { clients: { core: core.api, customObjects: custom.api }, core: core.calls, custom: custom.calls };
};

describe("patch", () => {
  it("sends the difference as one merge patch and resolves to the server's copy", async () => {
    const { clients, core } = fakes();
    const original = pod();
    const result = await patch(clients, original, (copy) => {
      copy.metadata!.labels = { app: "b", extra: "x" };
      delete copy.spec!.containers[0]!.image;
    });
    expect(result).toEqual({ ...servedAs({ name: "p", namespace: "ns" }), served: true });
    expect(core).toHaveLength(1);
    expect(core[0]).toMatchObject({ method: "patchNamespacedPod", contentType: MERGE });
    expect(core[0]?.params).toEqual({
      name: "p",
      namespace: "ns",
      body: { metadata: { labels: { app: "b", extra: "x" } }, spec: { containers: [{ name: "c" }] } },
    });
    expect(original).toEqual(pod());
  });

  it("sends nothing when the mutation changes nothing", async () => {
    const { clients, core } = fakes();
    const original = pod();
    const result = await patch(clients, original, (copy) => {
      copy.metadata!.creationTimestamp = new Date("2024-05-06T07:08:09Z");
    });
    expect(result).toBe(original);
    expect(core).toHaveLength(0);
  });

  it("awaits an async mutation", async () => {
    const { clients, core } = fakes();
    await patch(clients, pod(), async (copy) => {
      await Promise.resolve();
      copy.metadata!.labels = {};
    });
    expect(core[0]?.params["body"]).toEqual({ metadata: { labels: { app: null } } });
  });

  it("adds the resourceVersion with optimisticLock", async () => {
    const { clients, core } = fakes();
    await patch(clients, pod(), (copy) => void (copy.metadata!.labels!["app"] = "z"), { optimisticLock: true });
    expect(core[0]?.params["body"]).toEqual({ metadata: { labels: { app: "z" }, resourceVersion: "41" } });
  });

  it("refuses optimisticLock without a resourceVersion, before mutating or sending", async () => {
    const { clients, core } = fakes();
    const noVersion = pod();
    delete noVersion.metadata!.resourceVersion;
    let called = false;
    await expect(patch(clients, noVersion, () => void (called = true), { optimisticLock: true })).rejects.toSatisfy((err) =>
      isCocoonError(err, "ERR_INVALID_ARGUMENT"),
    );
    expect(called).toBe(false);
    expect(core).toHaveLength(0);
  });

  it("routes a CocoonSet through customObjects, with Go's body for a zero value", async () => {
    const { clients, custom } = fakes();
    await patch(clients, set(), (copy) => void (copy.spec.agent.replicas = 0));
    expect(custom[0]).toMatchObject({ method: "patchNamespacedCustomObject", contentType: MERGE });
    expect(custom[0]?.params).toMatchObject({ plural: "cocoonsets", name: "demo" });
    // replicas is omitempty in Go: 0 is "absent", so the field is removed (the CRD default is 0).
    expect(custom[0]?.wireBody).toBe('{"spec":{"agent":{"replicas":null}}}');
  });

  it("leaves the object untouched when the request fails", async () => {
    const { api } = fakeApi<CoreV1Api>(() => {
      throw new Error("boom");
    });
    const original = pod();
    await expect(patch({ core: api }, original, (copy) => void (copy.status!.phase = "Running"))).rejects.toThrow("boom");
    expect(original).toEqual(pod());
  });
});

describe("patchStatus", () => {
  it("sends a changed condition list whole to /status", async () => {
    const { clients, core } = fakes();
    await patchStatus(clients, pod(), (copy) => void (copy.status!.conditions![0]!.status = "True"));
    expect(core[0]).toMatchObject({ method: "patchNamespacedPodStatus", contentType: MERGE });
    expect(core[0]?.params["body"]).toEqual({ status: { conditions: [{ type: "Ready", status: "True" }] } });
  });

  it("routes a CocoonSet status through customObjects", async () => {
    const { clients, custom } = fakes();
    await patchStatus(clients, set(), (copy) => void (copy.status.phase = "Suspended"), { optimisticLock: true });
    expect(custom[0]?.method).toBe("patchNamespacedCustomObjectStatus");
    expect(custom[0]?.params["body"]).toEqual({ status: { phase: "Suspended" }, metadata: { resourceVersion: "7" } });
    expect(custom[0]?.wireBody).toBe('{"metadata":{"resourceVersion":"7"},"status":{"phase":"Suspended"}}');
  });
});

import { ApiextensionsV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "../../src/apis/v1/index.js";
import { createClients, installCRDs, patchAnnotations, statusCode, type CocoonClients } from "../../src/k8s/index.js";
import { startControlPlane, type ControlPlane } from "../../src/testing/index.js";
import { controlPlaneBinaries } from "./helpers.js";
import { startRecordingProxy, type RecordingProxy } from "./k8s-counting-proxy.js";

const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const CEL_MESSAGE = "spec: Invalid value: hibernatePolicy=release requires agent.replicas=0 and no toolboxes";

// A control plane of this file's own, started without our CRDs, so installCRDs starts from
// nothing, and so it can be stopped in the middle of calls without disturbing other files.
let plane: ControlPlane;
let proxy: RecordingProxy;

beforeAll(async () => {
  plane = await startControlPlane({ binaries: controlPlaneBinaries(), installCRDs: false, stopTimeoutMs: 5_000 });
  proxy = await startRecordingProxy(plane.connection);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await plane?.stop();
});

const createSet = (clients: CocoonClients, name: string, spec: object) =>
  clients.customObjects.createNamespacedCustomObject({
    group: "cocoonset.cocoonstack.io",
    version: "v1",
    namespace: "default",
    plural: "cocoonsets",
    body: { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonSet", metadata: { name }, spec },
  });

describe("installCRDs on a fresh apiserver", () => {
  it("installs both CRDs whole with one server-side apply each and waits until they are established", async () => {
    proxy.reset();
    await installCRDs(proxy.kubeConfig(), { timeoutMs: 30_000 });

    const applies = proxy.requests.filter((r) => r.method === "PATCH");
    expect(applies.map((r) => [r.path, r.contentType, r.status])).toEqual([
      [`${CRD_PATH}/${cocoonSetCRD.metadata.name}?fieldManager=cocoon-common&force=true`, "application/apply-patch+yaml", 201],
      [`${CRD_PATH}/${cocoonHibernationCRD.metadata.name}?fieldManager=cocoon-common&force=true`, "application/apply-patch+yaml", 201],
    ]);
    expect(applies.map((r) => JSON.parse(r.body) as unknown)).toEqual([cocoonSetCRD, cocoonHibernationCRD]);
    expect(applies[0]?.body).toContain('"x-kubernetes-validations"');
    expect(applies[0]?.body).toContain('"x-kubernetes-int-or-string":true');
    expect(proxy.requests.filter((r) => r.method !== "PATCH").every((r) => r.method === "GET" && r.path.startsWith(CRD_PATH))).toBe(true);

    const api = plane.kubeConfig.makeApiClient(ApiextensionsV1Api);
    for (const crd of [cocoonSetCRD, cocoonHibernationCRD]) {
      const served = await api.readCustomResourceDefinition({ name: crd.metadata.name });
      expect(served.status?.conditions?.find((c) => c.type === "Established")?.status).toBe("True");
    }
  });

  it("the server enforces the CEL rule, so the x-kubernetes-* fields arrived", async () => {
    const clients = createClients(plane.kubeConfig);
    try {
      const err: unknown = await createSet(clients, "release-with-replicas", {
        hibernatePolicy: "release",
        agent: { image: "x", replicas: 2 },
      }).catch((e: unknown) => e);
      expect(statusCode(err)).toBe(422);
      const status = JSON.parse((err as { body: string }).body) as { reason: string; message: string; details: { causes: unknown[] } };
      expect(status.reason).toBe("Invalid");
      expect(status.message).toBe(`CocoonSet.cocoonset.cocoonstack.io "release-with-replicas" is invalid: ${CEL_MESSAGE}`);
      expect(status.details.causes).toEqual([{ reason: "FieldValueInvalid", field: "spec", message: CEL_MESSAGE.replace("spec: ", "") }]);
      const ok = (await createSet(clients, "release-main-only", { hibernatePolicy: "release", agent: { image: "x", storage: 10 } })) as {
        spec: { agent: { storage: unknown } };
      };
      expect(ok.spec.agent.storage).toBe(10);
    } finally {
      clients.close();
    }
  });

  it("is idempotent: a second install updates in place", async () => {
    proxy.reset();
    await installCRDs(proxy.kubeConfig());
    expect(proxy.requests.filter((r) => r.method === "PATCH").map((r) => r.status)).toEqual([200, 200]);
    expect(proxy.requests.filter((r) => r.method === "GET")).toHaveLength(2);
  });

  it("(the trap) client-node's typed API would have dropped every x-kubernetes-* field", async () => {
    const api = proxy.kubeConfig().makeApiClient(ApiextensionsV1Api);
    proxy.reset();
    await api.createCustomResourceDefinition({ body: structuredClone(cocoonSetCRD), dryRun: "All" }).catch(() => undefined);
    expect(proxy.requests).toHaveLength(1);
    const typed = proxy.requests[0]?.body ?? "";
    const whole = JSON.stringify(cocoonSetCRD);
    expect(whole).toContain('"x-kubernetes-validations"');
    expect(typed).not.toContain('"x-kubernetes-validations"');
    const count = (text: string) => text.split('"x-kubernetes-').length - 1;
    expect(count(typed)).toBeLessThan(count(whole));
  });
});

describe("the server stopped mid-call", () => {
  it("every call settles with a network error in bounded time, and later calls fail fast", async () => {
    const clients = createClients(plane.kubeConfig);
    const pod = { metadata: { name: "gone-soon", namespace: "default" } };
    await clients.core.createNamespacedPod({
      namespace: "default",
      body: { ...pod, spec: { containers: [{ name: "c", image: "busybox" }] } },
    });
    let stopped = 0;
    const worker = async (w: number): Promise<unknown> => {
      for (let i = 0; ; i++) {
        try {
          await patchAnnotations(clients, pod, { [`stop.example.com/w${w}`]: String(i) });
        } catch (err) {
          return err;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w).then((err) => ({ err, settledAfterStopMs: Date.now() - stopped })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopped = Date.now();
    await plane.stop();
    const stopMs = Date.now() - stopped;
    const outcomes = await Promise.all(workers);
    for (const { err, settledAfterStopMs } of outcomes) {
      expect(err).toBeInstanceOf(Error);
      expect(statusCode(err) === undefined || statusCode(err)! >= 500).toBe(true);
      expect(settledAfterStopMs).toBeLessThanOrEqual(stopMs + 1_000);
    }
    const started = Date.now();
    const after = await patchAnnotations(clients, pod, { "stop.example.com/after": "1" }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(after).toMatchObject({ code: "ECONNREFUSED" });
    clients.close();
  }, 60_000);
});

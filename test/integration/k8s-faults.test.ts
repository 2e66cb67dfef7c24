import net from "node:net";
import { RbacAuthorizationV1Api, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createClients,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
  patch,
  patchAnnotations,
  patchHibernateState,
  patchStatus,
  releaseSeat,
  statusCode,
  type CocoonClients,
  type KubeObject,
} from "../../src/k8s/index.js";
import { Annotation } from "../../src/meta/index.js";
import { createTestNamespace, getControlPlane, userKubeConfig } from "./helpers.js";
import { adminKubeConfigAt, startRecordingProxy } from "./k8s-counting-proxy.js";

const BOUND_MS = 5_000;

let ns: string;
let admin: CocoonClients;
let counter = 0;

beforeAll(async () => {
  ns = await createTestNamespace("k8s-faults");
  admin = createClients(getControlPlane().kubeConfig);
});

afterAll(() => admin.close());

function newPod(name = `pod-${++counter}`): Promise<V1Pod> {
  return admin.core.createNamespacedPod({
    namespace: ns,
    body: { metadata: { name }, spec: { containers: [{ name: "c", image: "busybox" }] } },
  });
}

/** Settles `promise` within the bound, returning what it rejected with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${BOUND_MS} ms`)), BOUND_MS)),
  );
  try {
    await Promise.race([promise, bound]);
  } catch (err) {
    return err;
  } finally {
    clearTimeout(timer);
  }
  throw new Error("expected a failure, got success");
}

describe("faults give typed errors, in bounded time", () => {
  it.each<[string, (c: CocoonClients, pod: V1Pod) => Promise<unknown>]>([
    ["patchAnnotations", (c, pod) => patchAnnotations(c, pod, { a: "1" })],
    ["patchHibernateState", (c, pod) => patchHibernateState(c, pod, true)],
    ["patch", (c, pod) => patch(c, pod, (copy) => void (copy.metadata!.labels = { a: "1" }))],
    ["patchStatus", (c, pod) => patchStatus(c, pod, (copy) => void (copy.status = { phase: "Running" }))],
  ])("404 from %s on a missing pod", async (_name, call) => {
    const err = await failure(call(admin, { metadata: { name: "missing", namespace: ns } }));
    expect(statusCode(err)).toBe(404);
    expect(isNotFound(err)).toBe(true);
  });

  it("409 from a stale resourceVersion with optimisticLock, and the object stays as it was", async () => {
    const stale = await newPod();
    await patchAnnotations(admin, stale, { "example.com/first": "1" });
    const snapshot = structuredClone(stale);
    const err = await failure(patch(admin, stale, (copy) => void (copy.metadata!.labels = { late: "1" }), { optimisticLock: true }));
    expect(statusCode(err)).toBe(409);
    expect(isConflict(err)).toBe(true);
    expect(stale).toEqual(snapshot);
    const back = await admin.core.readNamespacedPod({ name: stale.metadata!.name!, namespace: ns });
    expect(back.metadata?.labels).toBeUndefined();
    // Without the guard the same stale object patches fine, and the first write survives.
    const served = await patch(admin, stale, (copy) => void (copy.metadata!.labels = { late: "1" }));
    expect(served.metadata?.labels).toEqual({ late: "1" });
    expect(served.metadata?.annotations).toEqual({ "example.com/first": "1" });
  });

  it("422 from an invalid annotation key, and from the CocoonSet CEL rule", async () => {
    const pod = await newPod();
    const err = await failure(patchAnnotations(admin, pod, { "not a valid key": "x" }));
    expect(statusCode(err)).toBe(422);
    expect(isInvalid(err)).toBe(true);

    const set = (await admin.customObjects.createNamespacedCustomObject({
      group: "cocoonset.cocoonstack.io",
      version: "v1",
      namespace: ns,
      plural: "cocoonsets",
      body: {
        apiVersion: "cocoonset.cocoonstack.io/v1",
        kind: "CocoonSet",
        metadata: { name: "cel" },
        spec: { agent: { image: "x", replicas: 2 } },
      },
    })) as KubeObject & { spec: { hibernatePolicy?: string } };
    const cel = await failure(patch(admin, set, (copy) => void (copy.spec.hibernatePolicy = "release")));
    expect(statusCode(cel)).toBe(422);
    expect((cel as { body: string }).body).toContain(
      "spec: Invalid value: hibernatePolicy=release requires agent.replicas=0 and no toolboxes",
    );
  });

  describe("403 for a user without patch rights (RBAC)", () => {
    let reader: CocoonClients;

    beforeAll(async () => {
      const rbac = getControlPlane().kubeConfig.makeApiClient(RbacAuthorizationV1Api);
      await rbac.createNamespacedRole({
        namespace: ns,
        body: {
          metadata: { name: "get-delete-pods" },
          rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "delete"] }],
        },
      });
      await rbac.createNamespacedRoleBinding({
        namespace: ns,
        body: {
          metadata: { name: "reader" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "get-delete-pods" },
          subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "reader" }],
        },
      });
      reader = createClients(userKubeConfig("reader", ["team"]));
    });

    afterAll(() => reader.close());

    it("rejects the patch with 403", async () => {
      const pod = await reader.core.readNamespacedPod({ name: (await newPod()).metadata!.name!, namespace: ns });
      const err = await failure(patchHibernateState(reader, pod, true));
      expect(statusCode(err)).toBe(403);
      expect(isForbidden(err)).toBe(true);
    });

    it("lets releaseSeat delete the pod anyway, reporting the refused flag", async () => {
      const pod = await newPod();
      const errors: string[] = [];
      const result = await releaseSeat(reader, pod, { logger: { error: (message) => void errors.push(message) } });
      expect(result).toMatchObject({ flagged: false, deletion: "deleted" });
      expect(statusCode(result.flagError)).toBe(403);
      expect(errors).toEqual([
        expect.stringMatching(/before releasing its seat: 403 pods ".*" is forbidden: User "reader" cannot patch resource "pods"/),
      ]);
      expect(isNotFound(await admin.core.readNamespacedPod({ name: pod.metadata!.name!, namespace: ns }).catch((e: unknown) => e))).toBe(
        true,
      );
    });
  });
});

describe("a server that accepts and never answers", () => {
  it("cannot hang a call that carries a signal", async () => {
    const sockets = new Set<net.Socket>();
    const blackHole = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    const server = `https://127.0.0.1:${(blackHole.address() as net.AddressInfo).port}`;
    const clients = createClients(adminKubeConfigAt(getControlPlane().connection, server));
    try {
      const pod = { metadata: { name: "p", namespace: ns } };
      for (const call of [
        () => patchAnnotations(clients, pod, { a: "1" }, { signal: AbortSignal.timeout(300) }),
        () => releaseSeat(clients, pod, { signal: AbortSignal.timeout(300) }),
      ]) {
        const started = Date.now();
        const err = await failure(call());
        expect(Date.now() - started).toBeLessThan(2_000);
        expect((err as Error).name).toMatch(/AbortError|TimeoutError/);
        expect(statusCode(err)).toBeUndefined();
      }
    } finally {
      clients.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});

describe("50 concurrent writers of different annotations on one pod", () => {
  it("lose nothing, with one request each", async () => {
    const proxy = await startRecordingProxy(getControlPlane().connection);
    const writers = createClients(proxy.kubeConfig());
    try {
      const pod = await newPod();
      const keys = Array.from({ length: 50 }, (_, i) => `writers.example.com/w-${String(i).padStart(2, "0")}`);
      await Promise.all(keys.map((key, i) => patchAnnotations(writers, pod, { [key]: String(i) })));
      expect(proxy.requests.filter((r) => r.method === "PATCH" && r.status === 200)).toHaveLength(50);
      expect(proxy.requests).toHaveLength(50);
      const back = await admin.core.readNamespacedPod({ name: pod.metadata!.name!, namespace: ns });
      expect(back.metadata?.annotations).toEqual(Object.fromEntries(keys.map((key, i) => [key, String(i)])));
      expect(back.metadata?.annotations?.[Annotation.Hibernate]).toBeUndefined();
    } finally {
      writers.close();
      await proxy.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { KubeStatusError, finishPodDeletion, patchVMRuntime, statusCode, watchCocoonPods } from "../../src/kubelet/index.js";
import { Label, TOLERATION_KEY } from "../../src/meta/index.js";
import { BEARER_TOKEN, podObject, startAPIServer, type HostileAPIServer } from "./support/api-server.js";
import { json } from "./support/peer.js";
import { answerWatch, listAndWatch, record, requestLine } from "./support/scripted-watch.js";

// Issue 33's rules on the ./kubelet path (a KubeRequester, no client-node): every answer is read
// within a byte cap and a deadline, and no credential leaves the API server's origin.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const POD = { metadata: { name: "demo-0", namespace: "ns", uid: "u-1" } };

/** A cocoon pod as the API server lists it, its annotation `padding` bytes long. */
const cocoonPod = (name: string, resourceVersion: string, padding = 0) => ({
  metadata: {
    name,
    namespace: "ns",
    uid: `uid-${name}`,
    resourceVersion,
    labels: { [Label.CocoonSet]: "set" },
    annotations: { pad: "x".repeat(padding) },
  },
  spec: { nodeName: "node-a", tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }], containers: [{ name: "agent" }] },
});
const podList = (items: unknown[], resourceVersion: string) => ({
  kind: "PodList",
  apiVersion: "v1",
  metadata: { resourceVersion },
  items,
});

describe("every answer is read within a byte cap", () => {
  it("a list longer than maxListBytes is dropped as it passes the cap: ERR_ANSWER_TOO_LARGE, a retry, then the watch goes on", async () => {
    api.handle(
      listAndWatch(
        (res, n) => json(res, 200, n === 0 ? podList([cocoonPod("a", "5", 64 * 1024)], "10") : podList([cocoonPod("a", "5")], "10")),
        (res) => void answerWatch(res),
      ),
    );
    const controller = new AbortController();
    const rec = record(watchCocoonPods(api.requester, { namespace: "ns", maxListBytes: 16 * 1024, signal: controller.signal }));
    await rec.until((e) => e.type === "synced", { timeoutMs: 5_000 });
    await expect.poll(() => api.peer.seen.length).toBe(3);
    controller.abort();
    await rec.done;
    expect(rec.lines()).toEqual(["retrying ERR_ANSWER_TOO_LARGE", "added ns/a@5", "synced 10"]);
    const retrying = rec.events[0];
    expect(retrying?.type === "retrying" && (retrying.error as Error).message).toBe(
      "the Pod list from the API server is longer than 16384 bytes: dropped",
    );
    expect(api.peer.seen.map(requestLine)).toEqual(["list", "list", "watch@10"]);
  });

  it("a write answered with more than 8 MiB is dropped past them: ERR_ANSWER_TOO_LARGE after one request", async () => {
    api.handle((_req, res) => json(res, 200, podObject("demo-0", "ns", "u-1", { annotations: { pad: "x".repeat(9 * 2 ** 20) } })));
    const err = await patchVMRuntime(api.requester, POD, { ip: "10.0.0.1" }).catch((e: unknown) => e);
    expect([isCocoonError(err, "ERR_ANSWER_TOO_LARGE"), (err as Error).message]).toEqual([
      true,
      "the answer to PATCH /api/v1/namespaces/ns/pods/demo-0 from the API server is longer than 8388608 bytes: dropped",
    ]);
    expect(api.peer.seen.map((r) => r.method)).toEqual(["PATCH"]);
  });

  it("a refusal's Status is read up to 64 KiB, and the refusal is a KubeStatusError the helpers read", async () => {
    api.handle((_req, res) =>
      json(res, 409, { kind: "Status", apiVersion: "v1", code: 409, reason: "Conflict", message: "x".repeat(200 * 1024) }),
    );
    expect(await finishPodDeletion(api.requester, POD)).toBe("uid-mismatch");
    api.handle((_req, res) => json(res, 500, { kind: "Status", apiVersion: "v1", code: 500, reason: "InternalError", message: "boom" }));
    const err = await finishPodDeletion(api.requester, POD).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeStatusError);
    expect([(err as KubeStatusError).code, statusCode(err), (err as Error).message]).toEqual([
      "ERR_KUBE_STATUS",
      500,
      "DELETE /api/v1/namespaces/ns/pods/demo-0 answered 500: boom",
    ]);
  });
});

describe("every request has a deadline", () => {
  it("a write whose answer never ends rejects at the caller's deadline, its connection closed", async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"kind":"Pod",');
    });
    const started = Date.now();
    const err = await patchVMRuntime(api.requester, POD, { ip: "10.0.0.1" }, { signal: AbortSignal.timeout(300) }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("credentials stay with the API server's origin", () => {
  for (const code of [301, 302, 307, 308] as const) {
    it(`a ${code.toString()} to another origin is not followed: a KubeStatusError, the other origin sees nothing`, async () => {
      api.handle((req, res) => {
        res.writeHead(code, { location: `${api.other.origin}${req.path}` }).end();
      });
      const err = await patchVMRuntime(api.requester, POD, { ip: "10.0.0.1" }).catch((e: unknown) => e);
      expect([(err as KubeStatusError).code, statusCode(err)]).toEqual(["ERR_KUBE_STATUS", code]);
      expect(api.peer.seen.map((r) => r.headers["authorization"])).toEqual([`Bearer ${BEARER_TOKEN}`]);
      expect(api.other.seen.length).toBe(0);
    });
  }

  it("a request path cannot leave the server: refused before anything is sent", async () => {
    api.handle((_req, res) => json(res, 200, {}));
    for (const path of ["//evil.example/api", "https://evil.example/api", "api/v1"]) {
      await expect(api.requester.send({ method: "GET", path })).rejects.toThrow(
        `a request path must start with one "/", got ${JSON.stringify(path)}`,
      );
    }
    expect(api.peer.seen.length).toBe(0);
  });
});

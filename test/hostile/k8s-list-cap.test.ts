import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/apis/v1/index.js";
import { isCocoonError } from "../../src/errors.js";
import { statusCode, watchCocoonHibernations, watchCocoonPods, type WatchEvent } from "../../src/k8s/index.js";
import { Label, TOLERATION_KEY } from "../../src/meta/index.js";
import { BEARER_TOKEN, startAPIServer, statusNotFound, type HostileAPIServer } from "./support/api-server.js";
import { answerWatch, hibernation, listAndWatch, record, requestLine } from "./support/scripted-watch.js";

// The client-node path (createClients' clients) reads each list page within maxListBytes, as the
// KubeRequester path does (k8s-requester.test.ts): chunked or not, a page past the cap is dropped.
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const CAP = 16 * 1024;

const cocoonPod = (padding: number) => ({
  metadata: {
    name: "a",
    namespace: "ns",
    uid: "uid-a",
    resourceVersion: "5",
    labels: { [Label.CocoonSet]: "set" },
    annotations: { pad: "x".repeat(padding) },
  },
  spec: { nodeName: "node-a", tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }], containers: [{ name: "agent" }] },
});
const podList = (padding: number) => ({
  kind: "PodList",
  apiVersion: "v1",
  metadata: { resourceVersion: "10" },
  items: [cocoonPod(padding)],
});
const hibernationList = (padding: number) => ({
  kind: "CocoonHibernationList",
  apiVersion: API_VERSION,
  metadata: { resourceVersion: "10" },
  items: [
    {
      ...hibernation("a", "5"),
      metadata: { name: "a", namespace: "ns", resourceVersion: "5", uid: "uid-a", annotations: { pad: "x".repeat(padding) } },
    },
  ],
});

/** `list(padding)` as JSON of exactly `size` bytes. */
function sized(list: (padding: number) => unknown, size: number): Buffer {
  const bytes = Buffer.from(JSON.stringify(list(size - Buffer.byteLength(JSON.stringify(list(0))))));
  expect(bytes.length).toBe(size);
  return bytes;
}

type Send = (res: ServerResponse, bytes: Buffer) => void;
const chunked: Send = (res, bytes) => {
  res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
  for (let at = 0; at < bytes.length; at += 4096) res.write(bytes.subarray(at, at + 4096));
  res.end();
};
const withLength: Send = (res, bytes) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes.length) }).end(bytes);
};
const gzipped: Send = (res, bytes) => {
  const body = gzipSync(bytes);
  res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(body.length) }).end(body);
};
/** Announces the length, then never sends the body: a client that reads it waits for the list's 60 s deadline. */
const lengthOnly: Send = (res, bytes) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes.length) });
  res.flushHeaders();
};

/** Watches through `api.clients` until synced and the first watch request is in; the events and the requests seen. */
async function watchUntilSynced(watch: (signal: AbortSignal) => AsyncIterable<WatchEvent<unknown>>, requests: number) {
  const controller = new AbortController();
  const rec = record(watch(controller.signal));
  await rec.until((e) => e.type === "synced", { timeoutMs: 5_000 });
  await expect.poll(() => api.peer.seen.length).toBe(requests);
  controller.abort();
  await rec.done;
  return { rec, requests: api.peer.seen.map(requestLine) };
}

const TOO_LARGE = `the Pod list from the API server is longer than ${String(CAP)} bytes: dropped`;

describe("a list page on client-node clients is read within maxListBytes", () => {
  it.each([
    ["chunked", chunked],
    ["with a Content-Length", withLength],
    ["with a Content-Length and no body", lengthOnly],
    ["gzip, a few hundred bytes on the wire", gzipped],
  ])("one byte past it (%s) is dropped: ERR_ANSWER_TOO_LARGE, a retry, then the watch goes on", async (_case, send) => {
    api.handle(
      listAndWatch(
        (res, n) => (n === 0 ? send(res, sized(podList, CAP + 1)) : withLength(res, sized(podList, 1024))),
        (res) => void answerWatch(res),
      ),
    );
    const { rec, requests } = await watchUntilSynced(
      (signal) => watchCocoonPods(api.clients, { namespace: "ns", maxListBytes: CAP, signal }),
      3,
    );
    expect(rec.lines()).toEqual(["retrying ERR_ANSWER_TOO_LARGE", "added ns/a@5", "synced 10"]);
    const retrying = rec.events[0];
    expect(
      retrying?.type === "retrying" && [isCocoonError(retrying.error, "ERR_ANSWER_TOO_LARGE"), (retrying.error as Error).message],
    ).toEqual([true, TOO_LARGE]);
    expect(requests).toEqual(["list", "list", "watch@10"]);
  });

  it.each([
    ["chunked", chunked],
    ["with a Content-Length", withLength],
    ["gzip", gzipped],
  ])("exactly at it (%s) is taken: one list, then the watch", async (_case, send) => {
    api.handle(
      listAndWatch(
        (res) => send(res, sized(podList, CAP)),
        (res) => void answerWatch(res),
      ),
    );
    const { rec, requests } = await watchUntilSynced(
      (signal) => watchCocoonPods(api.clients, { namespace: "ns", maxListBytes: CAP, signal }),
      2,
    );
    expect(rec.lines()).toEqual(["added ns/a@5", "synced 10"]);
    expect(requests).toEqual(["list", "watch@10"]);
  });

  it("holds for a custom resource's list too (CocoonHibernations, 64 MiB by default)", async () => {
    api.handle(
      listAndWatch(
        (res, n) => (n === 0 ? chunked(res, sized(hibernationList, 64 * 2 ** 20 + 1)) : withLength(res, sized(hibernationList, 1024))),
        (res) => void answerWatch(res),
      ),
    );
    const { rec, requests } = await watchUntilSynced((signal) => watchCocoonHibernations(api.clients, { namespace: "ns", signal }), 3);
    expect(rec.lines()).toEqual(["retrying ERR_ANSWER_TOO_LARGE", "added ns/a@5", "synced 10"]);
    const retrying = rec.events[0];
    expect(retrying?.type === "retrying" && (retrying.error as Error).message).toBe(
      "the CocoonHibernation list from the API server is longer than 67108864 bytes: dropped",
    );
    expect(requests).toEqual(["list", "list", "watch@10"]);
  });
});

describe("a list page on client-node clients asks for gzip", () => {
  it("and says so; a corrupt gzip body is a retry with ERR_UNEXPECTED_OBJECT, then the watch goes on", async () => {
    api.handle(
      listAndWatch(
        (res, n) =>
          n === 0
            ? void res
                .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
                .end(Buffer.from("not gzip at all"))
            : gzipped(res, sized(podList, 1024)),
        (res) => void answerWatch(res),
      ),
    );
    const { rec, requests } = await watchUntilSynced((signal) => watchCocoonPods(api.clients, { namespace: "ns", signal }), 3);
    expect(rec.lines()).toEqual(["retrying ERR_UNEXPECTED_OBJECT", "added ns/a@5", "synced 10"]);
    const retrying = rec.events[0];
    expect(retrying?.type === "retrying" && (retrying.error as Error).message).toBe("the API server's gzip answer is corrupt");
    expect(requests).toEqual(["list", "list", "watch@10"]);
    expect(api.peer.seen.slice(0, 2).map((r) => r.headers["accept-encoding"])).toEqual(["gzip", "gzip"]);
  });
});

describe("a list page on client-node clients follows no redirect", () => {
  it.each([
    ["another origin", () => api.other.origin],
    ["the same origin", () => api.peer.origin],
  ])("(to %s): a retry with the 307's ApiException, the list sent again to the API server only", async (_case, origin) => {
    api.handle(
      listAndWatch(
        (res, n, req) =>
          n === 0 ? void res.writeHead(307, { location: `${origin()}${req.path}&moved=1` }).end() : withLength(res, sized(podList, 1024)),
        (res) => void answerWatch(res),
      ),
    );
    api.other.handle(statusNotFound);
    const { rec, requests } = await watchUntilSynced((signal) => watchCocoonPods(api.clients, { namespace: "ns", signal }), 3);
    expect(rec.events.map((e) => e.type)).toEqual(["retrying", "added", "synced"]);
    expect(statusCode(rec.events[0]?.type === "retrying" ? rec.events[0].error : undefined)).toBe(307);
    expect(requests).toEqual(["list", "list", "watch@10"]);
    expect(api.peer.seen.map((r) => [r.path.includes("moved"), r.headers["authorization"]])).toEqual([
      [false, `Bearer ${BEARER_TOKEN}`],
      [false, `Bearer ${BEARER_TOKEN}`],
      [false, `Bearer ${BEARER_TOKEN}`],
    ]);
    expect(api.other.seen.length).toBe(0);
  });
});

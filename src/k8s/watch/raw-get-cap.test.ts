import type { ServerResponse } from "node:http";
import { ApiException, Observable, createConfiguration, type Configuration, type ResponseContext } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAPIServer, type HostileAPIServer } from "../../../test/hostile/support/api-server.js";
import { isCocoonError } from "../../errors.js";
import { clientNodeMajor } from "../transport/index.js";
import { rawGet } from "./raw-get.js";

// On createClients' configuration over TLS: client-node 1's keep-alive agent, client-node 2's undici
// dispatcher (the matrix runs this file on both lines).
let api: HostileAPIServer;
beforeAll(async () => {
  api = await startAPIServer();
});
afterAll(() => api.close());

const CAP = 4096;
const BOUNDS = { maxBytes: CAP, timeoutMs: 5_000, what: "the Pod list" };

/** A PodList's JSON of exactly `size` bytes. */
function listOf(size: number): Buffer {
  const list = (pad: string) => ({ kind: "PodList", metadata: { resourceVersion: "7", pad }, items: [] });
  return Buffer.from(JSON.stringify(list("x".repeat(size - JSON.stringify(list("")).length))));
}

function chunked(res: ServerResponse, bytes: Buffer): void {
  res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
  for (let at = 0; at < bytes.length; at += 1000) res.write(bytes.subarray(at, at + 1000));
  res.end();
}

const get = (configuration: Configuration = api.clients.configuration, bounds = BOUNDS) =>
  rawGet(configuration, { path: "/api/v1/pods", query: { limit: 5 }, signal: new AbortController().signal }, bounds);

describe(`rawGet on client-node ${String(clientNodeMajor)}'s connections`, () => {
  it("rejects a chunked 200 one byte past the cap with ERR_ANSWER_TOO_LARGE, after one request", async () => {
    api.handle((_req, res) => chunked(res, listOf(CAP + 1)));
    const err = await get().catch((e: unknown) => e);
    expect([isCocoonError(err, "ERR_ANSWER_TOO_LARGE"), (err as Error).message]).toEqual([
      true,
      "the Pod list from the API server is longer than 4096 bytes: dropped",
    ]);
    expect(api.peer.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/pods?limit=5"]);
  });

  it("refuses a Content-Length past the cap before reading: the body is never sent, and no deadline is waited for", async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(CAP + 1) });
      res.flushHeaders();
    });
    const started = Date.now();
    const err = await get().catch((e: unknown) => e);
    expect([isCocoonError(err, "ERR_ANSWER_TOO_LARGE"), Date.now() - started < 1_000]).toEqual([true, true]);
  });

  it.each([
    ["chunked", chunked],
    [
      "with a Content-Length",
      (res: ServerResponse, bytes: Buffer) => void res.writeHead(200, { "content-length": String(bytes.length) }).end(bytes),
    ],
  ])("takes a 200 of exactly the cap (%s)", async (_case, send) => {
    api.handle((_req, res) => send(res, listOf(CAP)));
    expect(await get()).toEqual(JSON.parse(listOf(CAP).toString()));
  });

  it("rejects a body that never ends at the deadline", async () => {
    api.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
      res.write('{"kind":"PodList",');
    });
    const err = await get(undefined, { ...BOUNDS, timeoutMs: 300 }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("TimeoutError");
  });

  it("cuts a refusal's body at 64 KiB: client-node's ApiException carries the first 65536 bytes", async () => {
    api.handle((_req, res) => void res.writeHead(500, { "content-type": "text/plain" }).end("x".repeat(200 * 1024)));
    const err = await get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect([(err as ApiException<string>).code, (err as ApiException<string>).body.length]).toEqual([500, 65_536]);
  });

  it("reads the body once for a middleware that reads it too (the KubeConfig authenticating), within the same cap", async () => {
    const texts: string[] = [];
    const reading = createConfiguration({
      baseServer: api.clients.configuration.baseServer,
      authMethods: { default: api.kubeConfig },
      middleware: [
        {
          pre: (context) => new Observable(Promise.resolve(context)),
          post: (response: ResponseContext) =>
            new Observable(
              response.body.text().then(
                (text) => (texts.push(text), response),
                (err: unknown) => (texts.push((err as Error).message), response),
              ),
            ),
        },
      ],
    });
    api.handle((_req, res) => chunked(res, listOf(CAP)));
    expect(await get(reading)).toEqual(JSON.parse(listOf(CAP).toString()));
    api.handle((_req, res) => chunked(res, listOf(CAP + 1)));
    expect(isCocoonError(await get(reading).catch((e: unknown) => e), "ERR_ANSWER_TOO_LARGE")).toBe(true);
    expect(texts).toEqual([listOf(CAP).toString(), "the Pod list from the API server is longer than 4096 bytes: dropped"]);
  });
});

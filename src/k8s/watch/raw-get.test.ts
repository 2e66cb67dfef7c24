import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  ApiException,
  createConfiguration,
  IsomorphicFetchHttpLibrary,
  Observable,
  ServerConfiguration,
  type ObservableMiddleware,
  type RequestContext,
} from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet } from "./raw-get.js";

/** What the server saw of each request. */
interface Seen {
  url: string;
  accept: string | undefined;
  authorization: string | undefined;
  trace: string | undefined;
}

const seen: Seen[] = [];
let answer: { status: number; body: string } = { status: 200, body: "{}" };
const server = http.createServer((req, res) => {
  seen.push({
    url: req.url ?? "",
    accept: req.headers.accept,
    authorization: req.headers.authorization,
    trace: req.headers["x-trace"] as string,
  });
  res.writeHead(answer.status, { "content-type": "application/json", "x-answer": String(answer.status) }).end(answer.body);
});
let base = "";
const BOUNDS = { maxBytes: 1024, timeoutMs: 5_000, what: "the Pod list" };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A configuration as createClients builds it, with one middleware that records its calls in `order` (and sets `signal`). */
function configuration(order: string[], signal?: AbortSignal) {
  const middleware: ObservableMiddleware = {
    pre: (context: RequestContext) => {
      order.push("pre");
      context.setHeaderParam("X-Trace", "t1");
      if (signal !== undefined) context.setSignal(signal);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => {
      order.push(`post ${String(response.httpStatusCode)}`);
      return new Observable(Promise.resolve(response));
    },
  };
  return createConfiguration({
    baseServer: new ServerConfiguration(base, {}),
    authMethods: {
      default: { getName: () => "test", applySecurityAuthentication: (ctx) => ctx.setHeaderParam("Authorization", "Bearer t0") },
    },
    httpApi: new IsomorphicFetchHttpLibrary(),
    middleware: [middleware],
  });
}

describe("rawGet", () => {
  it("sends one GET with the query, Accept, authentication and middleware, and resolves to the JSON as it came", async () => {
    seen.length = 0;
    answer = { status: 200, body: '{"kind":"PodList","metadata":{"resourceVersion":"7","continue":"c2"},"items":[{"a":1}]}' };
    const order: string[] = [];
    const query = { continue: "c1", fieldSelector: undefined, labelSelector: "x=y,z", limit: 500 };
    const json = await rawGet(
      configuration(order),
      { path: "/api/v1/namespaces/demo/pods", query, signal: new AbortController().signal },
      BOUNDS,
    );
    expect(json).toEqual({ kind: "PodList", metadata: { resourceVersion: "7", continue: "c2" }, items: [{ a: 1 }] });
    expect(seen).toEqual([
      {
        url: "/api/v1/namespaces/demo/pods?continue=c1&labelSelector=x%3Dy%2Cz&limit=500",
        accept: "application/json, */*;q=0.8",
        authorization: "Bearer t0",
        trace: "t1",
      },
    ]);
    expect(order).toEqual(["pre", "post 200"]);
  });

  it.each([
    [401, "Unauthorized", undefined],
    [410, "Unknown API Status Code!", '{"kind":"Status","code":410,"reason":"Expired"}'],
    [500, "Unknown API Status Code!", "not json"],
    // client-node's getBodyAsAny hands an error's body back as text.
  ])("rejects a %i with client-node's ApiException", async (status, message, body) => {
    answer = { status, body: body ?? "{}" };
    const error = await rawGet(configuration([]), { path: "/api/v1/pods", query: {}, signal: new AbortController().signal }, BOUNDS).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ApiException);
    expect(error).toMatchObject({ code: status, body });
    expect((error as ApiException<unknown>).message).toContain(message);
    expect((error as ApiException<unknown>).headers["x-answer"]).toBe(String(status));
  });

  it("stops at an aborted signal without an answer", async () => {
    seen.length = 0;
    const error = await rawGet(configuration([]), { path: "/api/v1/pods", query: {}, signal: AbortSignal.abort() }, BOUNDS).catch(
      (err: unknown) => err,
    );
    expect(error).toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([]);
  });

  it("stops at an aborted signal a middleware set, without an answer", async () => {
    seen.length = 0;
    const order: string[] = [];
    const error = await rawGet(
      configuration(order, AbortSignal.abort()),
      { path: "/api/v1/pods", query: {}, signal: new AbortController().signal },
      BOUNDS,
    ).catch((err: unknown) => err);
    expect([(error as Error).name, order, seen]).toEqual(["AbortError", ["pre"], []]);
  });
});

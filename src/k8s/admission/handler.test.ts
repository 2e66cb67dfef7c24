import { type ClientRequest, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admissionHandler, type AdmissionHandlerFunc, type AdmissionHandlerOptions } from "./handler.js";
import { allow, deny } from "./response.js";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

/** Starts a real server on 127.0.0.1:0 with the handler; returns its port. */
async function serve(handler: AdmissionHandlerFunc, options: AdmissionHandlerOptions = {}): Promise<number> {
  server = createServer(admissionHandler(handler, options));
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return (server?.address() as AddressInfo).port;
}

/**
 * Sends one POST with a real client and collects the exact reply.
 *
 * Resolves once the reply has ended and the whole body has been written (a refused body is
 * still being sent when the 400 arrives).
 */
async function post(port: number, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  let req!: ClientRequest;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = httpRequest(
      { host: "127.0.0.1", port, method: "POST", path: "/validate", headers: { "Content-Type": "application/json", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
  });
  const written = new Promise((resolve) => req.once("finish", resolve));
  req.end(body);
  const [result] = await Promise.all([reply, written]);
  return result;
}

const silent = () => ({ warn: vi.fn(), error: vi.fn() });

/** The logger got `message` at warning level, with the error as `fields.err`. */
function expectWarned(logger: ReturnType<typeof silent>, message: string): void {
  const call = logger.warn.mock.calls.find(([m]) => m === message);
  expect(call?.[0]).toBe(message);
  expect((call?.[1] as { err?: unknown } | undefined)?.err).toBeInstanceOf(Error);
}

const REVIEW = {
  kind: "AdmissionReview",
  apiVersion: "admission.k8s.io/v1",
  request: {
    uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
    kind: { group: "cocoonset.cocoonstack.io", version: "v1", kind: "CocoonSet" },
    operation: "CREATE",
    object: { metadata: { name: "demo" } },
  },
};
/** Go's echo of a request with these fields: its typed request, zero values filled, in field order. */
const goRequest = (uid: string, { kind = '{"group":"","version":"","kind":""}', operation = "", object = "null" } = {}): string =>
  `{"uid":"${uid}","kind":${kind},"resource":{"group":"","version":"","resource":""},"operation":"${operation}",` +
  `"userInfo":{},"object":${object},"oldObject":null,"options":null}`;
const REQUEST_JSON = goRequest(REVIEW.request.uid, {
  kind: JSON.stringify(REVIEW.request.kind),
  operation: "CREATE",
  object: JSON.stringify(REVIEW.request.object),
});

const expectPlainError = (reply: Reply, status: number, body: string): void => {
  expect(reply.status).toBe(status);
  expect(reply.body).toBe(body);
  expect(reply.headers["content-type"]).toBe("text/plain; charset=utf-8");
  expect(reply.headers["x-content-type-options"]).toBe("nosniff");
  expect(reply.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
};

describe("admissionHandler", () => {
  it.each([
    ["null", () => null],
    ["undefined", () => undefined],
    ["allow()", () => allow()],
    ["async allow()", async () => allow()],
  ])("a handler returning %s allows, echoing the whole review", async (_name, fn) => {
    const port = await serve(fn);
    const reply = await post(port, JSON.stringify(REVIEW));
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.body).toBe(
      `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":${REQUEST_JSON},` +
        `"response":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002","allowed":true}}`,
    );
    expect(reply.headers["content-length"]).toBe(String(Buffer.byteLength(reply.body)));
  });

  it("serializes deny() exactly like Go, escaping <, > and &", async () => {
    const port = await serve(() => deny("replicas <1> & more"));
    const reply = await post(port, JSON.stringify(REVIEW));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(
      `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":${REQUEST_JSON},` +
        '"response":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002","allowed":false,' +
        '"status":{"metadata":{},"message":"replicas \\u003c1\\u003e \\u0026 more","reason":"Forbidden"}}}',
    );
  });

  it("overwrites the handler's uid and orders fields like Go, dropping empty ones", async () => {
    const port = await serve(() => ({
      warnings: [],
      patchType: "JSONPatch",
      patch: "W10=",
      allowed: true,
      uid: "handler-set",
      auditAnnotations: { a: "b" },
    }));
    const reply = await post(port, JSON.stringify({ request: { uid: "u1" } }));
    expect(reply.body).toBe(
      `{"request":${goRequest("u1")},"response":{"uid":"u1","allowed":true,"patch":"W10=","patchType":"JSONPatch","auditAnnotations":{"a":"b"}}}`,
    );
  });

  it('omits the message of deny("") as Go does', async () => {
    const port = await serve(() => deny(""));
    const reply = await post(port, JSON.stringify({ request: { uid: "u1" } }));
    expect(reply.body).toBe(
      `{"request":${goRequest("u1")},"response":{"uid":"u1","allowed":false,"status":{"metadata":{},"reason":"Forbidden"}}}`,
    );
  });

  it("echoes object, oldObject and options as the exact text received, compacted and HTML-escaped", async () => {
    const port = await serve(() => null);
    const reply = await post(
      port,
      '{"request":{"uid":"u","object":{ "b" : [1.0, 1e300, "<"], "a" : 123456789012345678901234567890 },"x":1}}',
    );
    expect(reply.body).toBe(
      `{"request":${goRequest("u", { object: '{"b":[1.0,1e300,"\\u003c"],"a":123456789012345678901234567890}' })},"response":{"uid":"u","allowed":true}}`,
    );
  });

  it("echoes an object the handler replaced as JSON", async () => {
    const port = await serve((review) => {
      if (review.request) review.request.object = { replaced: true };
      return null;
    });
    const reply = await post(port, '{"request":{"uid":"u","object":{"a":1}}}');
    expect(reply.body).toBe(`{"request":${goRequest("u", { object: '{"replaced":true}' })},"response":{"uid":"u","allowed":true}}`);
  });

  it("answers 400 missing request for a __proto__ key, as Go does", async () => {
    const handler = vi.fn(() => null);
    const port = await serve(handler);
    expectPlainError(await post(port, '{"__proto__":{"request":{"uid":"s"}}}'), 400, "admission review missing request\n");
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers 400 before the handler for a body nested deeper than Go's 10,000 levels", async () => {
    const handler = vi.fn(() => null);
    const port = await serve(handler, { logger: silent() });
    const deep = `{"request":{"uid":"d","object":${"[".repeat(10_001)}${"]".repeat(10_001)}}}`;
    expectPlainError(await post(port, deep), 400, "decode admission review\n");
    expect(handler).not.toHaveBeenCalled();
  });

  it("passes the decoded review and a live signal to the handler", async () => {
    const handler = vi.fn<AdmissionHandlerFunc>(() => null);
    const port = await serve(handler);
    await post(port, JSON.stringify(REVIEW));
    expect(handler).toHaveBeenCalledTimes(1);
    const [review, signal] = handler.mock.calls[0]!;
    expect(review.request).toEqual({
      ...REVIEW.request,
      resource: { group: "", version: "", resource: "" },
      subResource: "",
      requestSubResource: "",
      name: "",
      namespace: "",
      userInfo: { username: "", uid: "" },
    });
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it("matches top-level and request keys case-insensitively, like encoding/json", async () => {
    const port = await serve(() => null);
    const reply = await post(port, '{"KIND":"AdmissionReview","Request":{"UID":"abc","Operation":"DELETE"}}');
    expect(reply.body).toBe(
      `{"kind":"AdmissionReview","request":${goRequest("abc", { operation: "DELETE" })},"response":{"uid":"abc","allowed":true}}`,
    );
  });

  it("decodes the first JSON value only, ignoring trailing bytes", async () => {
    const port = await serve(() => null);
    const reply = await post(port, ' \n{"request":{"uid":"x"}} trailing garbage {');
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(`{"request":${goRequest("x")},"response":{"uid":"x","allowed":true}}`);
  });

  it.each([
    ["no request", "{}"],
    ["request null", '{"request":null}'],
    ["body null", "null"],
  ])("answers 400 for %s without calling the handler", async (_name, body) => {
    const handler = vi.fn(() => null);
    const port = await serve(handler);
    expectPlainError(await post(port, body), 400, "admission review missing request\n");
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    ["empty body", ""],
    ["invalid JSON", "{not json"],
    ["truncated object", '{"request":{"uid":"x"}'],
    ["array", "[]"],
    ["string", '"review"'],
    ["request is a string", '{"request":"x"}'],
    ["uid is a number", '{"request":{"uid":5}}'],
    ["kind is a number", '{"kind":1,"request":{"uid":"x"}}'],
    ["byte-order mark", '\uFEFF{"request":{"uid":"x"}}'],
  ])("answers 400 decode admission review for %s and logs a warning", async (_name, body) => {
    const logger = silent();
    const handler = vi.fn(() => null);
    const port = await serve(handler, { logger });
    expectPlainError(await post(port, body), 400, "decode admission review\n");
    expect(handler).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/^decode admission review: /);
  });

  it("refuses a body over the cap and keeps serving", async () => {
    const logger = silent();
    const handler = vi.fn(() => null);
    const port = await serve(handler, { maxBytes: 64, logger });
    const fits = `{"request":{"uid":"x"}}`.padEnd(64, " ");
    expect((await post(port, fits)).status).toBe(200);
    expectPlainError(await post(port, `${fits} `), 400, "decode admission review\n");
    expectWarned(logger, "decode admission review: body exceeds 64 bytes");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("refuses a chunked body once it passes the cap", async () => {
    const logger = silent();
    const port = await serve(() => null, { maxBytes: 64, logger });
    const body = `{"request":{"uid":"x"}}`.padEnd(200, " ");
    const reply = await post(port, body, { "Transfer-Encoding": "chunked" });
    expectPlainError(reply, 400, "decode admission review\n");
    expectWarned(logger, "decode admission review: body exceeds 64 bytes");
  });

  it("applies the 10 MiB default cap", async () => {
    const logger = silent();
    const port = await serve(() => null, { logger });
    const head = `{"request":{"uid":"big"}}`;
    const atCap = Buffer.alloc(10 << 20, 0x20);
    atCap.write(head);
    expect((await post(port, atCap)).status).toBe(200);
    const overCap = Buffer.alloc((10 << 20) + 1, 0x20);
    overCap.write(head);
    expectPlainError(await post(port, overCap), 400, "decode admission review\n");
    expectWarned(logger, "decode admission review: body exceeds 10485760 bytes");
  });

  it("waits for a slow async handler", async () => {
    const port = await serve(async () => {
      await new Promise((r) => setTimeout(r, 300));
      return deny("slow");
    });
    const started = Date.now();
    const reply = await post(port, JSON.stringify({ request: { uid: "s" } }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(reply.body).toBe(
      `{"request":${goRequest("s")},"response":{"uid":"s","allowed":false,"status":{"metadata":{},"message":"slow","reason":"Forbidden"}}}`,
    );
  });

  it("aborts the handler's signal when the client goes away", async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let aborted!: (v: boolean) => void;
    const sawAbort = new Promise<boolean>((r) => (aborted = r));
    const logger = silent();
    const port = await serve(
      (_review, signal) =>
        new Promise((resolve) => {
          entered();
          signal.addEventListener("abort", () => {
            aborted(true);
            resolve(allow());
          });
        }),
      { logger },
    );
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/" });
    req.on("error", () => undefined);
    req.end(JSON.stringify({ request: { uid: "gone" } }));
    await inHandler;
    req.destroy();
    expect(await sawAbort).toBe(true);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("boom");
      },
    ],
    ["rejects", () => Promise.reject(new Error("boom"))],
  ])("answers 500 and logs an error when the handler %s", async (_name, fn) => {
    const logger = silent();
    const port = await serve(fn, { logger });
    expectPlainError(await post(port, JSON.stringify(REVIEW)), 500, "admission handler failed\n");
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]?.[0]).toBe("admission handler failed");
    expect((logger.error.mock.calls[0]?.[1] as { err: Error }).err.message).toBe("boom");
  });

  it("answers 500 encode response for a response Go could not hold", async () => {
    const logger = silent();
    const port = await serve(() => ({ allowed: "yes" as unknown as boolean }), { logger });
    expectPlainError(await post(port, JSON.stringify(REVIEW)), 500, "encode response\n");
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("answers 500 encode response when the response cannot be serialized", async () => {
    const logger = silent();
    const port = await serve(() => ({ allowed: true, auditAnnotations: { n: 1n as unknown as string } }), { logger });
    expectPlainError(await post(port, JSON.stringify(REVIEW)), 500, "encode response\n");
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

import http from "node:http";
import https from "node:https";
import type net from "node:net";
import zlib from "node:zlib";
import {
  ApiException,
  CoreV1Api,
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  KubeConfig,
  RequestContext,
  ServerConfiguration,
  createConfiguration,
  type HttpLibrary,
  type ResponseContext,
} from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { createCertificateAuthority } from "../testing/control-plane/x509.js";
import { statusCode } from "./api-errors.js";
import { clientNodeMajor, clientNodeVersion } from "./client-node-line.js";
import { createClients } from "./clients.js";
import { createHttpsTransport } from "./https-transport.js";
import { keepAliveAuthentication, type KeepAliveAuthentication } from "./keep-alive-authentication.js";
import { requestAgent } from "./request-agent.js";

const SERVER_NAME = "cocoon-transport-test";
const NODE_FETCH_UA = "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A local server that records every request and answers with `handler` (swapped per test). */
interface TestServer {
  readonly url: string;
  readonly seen: Seen[];
  connections: number;
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;
  close(): Promise<void>;
}

async function startServer(tls: { certPem: string; keyPem: string } | undefined): Promise<TestServer> {
  const state: TestServer = {
    url: "",
    seen: [],
    connections: 0,
    handler: (_req, res) => res.end("{}"),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      state.seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.sendDate = false;
      state.handler(req, res, body);
    });
  };
  const server = tls === undefined ? http.createServer(listener) : https.createServer({ cert: tls.certPem, key: tls.keyPem }, listener);
  server.on("connection", () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return Object.assign(state, { url: `${tls === undefined ? "http" : "https"}://127.0.0.1:${port}` });
}

function kubeConfigFor(server: string, cluster: { caData?: string; skipTLSVerify?: boolean; tlsServerName?: string }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "c", server, skipTLSVerify: false, ...cluster }, { name: "u", token: "t0" });
  return kc;
}

const ca = createCertificateAuthority(SERVER_NAME);
/** Made on client-node 1 only: on 2 `createHttpsTransport` refuses (the last block), and no test sends through this. */
const transport: HttpLibrary =
  clientNodeMajor === 1 ? createHttpsTransport() : { send: () => expect.fail("createHttpsTransport is refused on client-node 2") };
const nodeFetch = new IsomorphicFetchHttpLibrary();
let secure: TestServer;
let plain: TestServer;
let secureAuth: KeepAliveAuthentication;
let plainAuth: KeepAliveAuthentication;

beforeAll(async () => {
  secure = await startServer(ca);
  plain = await startServer(undefined);
  secureAuth = keepAliveAuthentication(
    kubeConfigFor(secure.url, { caData: Buffer.from(ca.certPem).toString("base64"), tlsServerName: SERVER_NAME }),
  );
  plainAuth = keepAliveAuthentication(kubeConfigFor(plain.url, { skipTLSVerify: true }));
});

afterAll(async () => {
  secureAuth.close();
  plainAuth.close();
  await Promise.all([secure.close(), plain.close()]);
});

afterEach(() => {
  for (const server of [secure, plain]) {
    server.seen.length = 0;
    server.handler = (_req, res) => res.end("{}");
  }
});

/** A request as client-node's generated code and the KubeConfig build it: URL, method, headers, body, agent. */
async function request(
  server: TestServer,
  method: HttpMethod,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const context = new RequestContext(`${server.url}${path}`, method);
  for (const [name, value] of Object.entries(init.headers ?? {})) context.setHeaderParam(name, value);
  if (init.body !== undefined) context.setBody(init.body as string);
  await (server === secure ? secureAuth : plainAuth).applySecurityAuthentication(context);
  return context;
}

async function send(library: HttpLibrary, context: RequestContext): Promise<ResponseContext> {
  return library.send(context).toPromise();
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (err: unknown) => err as Error & { code?: string },
  );
}

describe.runIf(clientNodeMajor === 1)("createHttpsTransport on client-node 1 (not run on client-node 2: refused there, see below)", () => {
  it("sends and returns what node-fetch does over https, headers and bytes exact, except node-fetch's User-Agent", async () => {
    const reply = JSON.stringify({ kind: "Pod", metadata: { name: "p", annotations: { note: "é☃" } } });
    secure.handler = (_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("X-Multi", ["a", "b"]);
      res.setHeader("Set-Cookie", ["x=1", "y=2"]);
      res.setHeader("Content-Length", Buffer.byteLength(reply));
      res.writeHead(201).end(reply);
    };
    const body = JSON.stringify({ metadata: { annotations: { note: "é☃" } } });
    const init = { body, headers: { Accept: "application/json", "Content-Type": "application/merge-patch+json", "X-Custom": "1" } };
    const path = "/api/v1/namespaces/ns/pods/p?fieldManager=cocoon&dryRun=All";
    const ours = await send(transport, await request(secure, HttpMethod.PATCH, path, init));
    const theirs = await send(nodeFetch, await request(secure, HttpMethod.PATCH, path, init));

    const [sent, fetched] = secure.seen;
    expect(sent).toEqual({
      method: "PATCH",
      url: path,
      headers: {
        host: secure.url.slice("https://".length),
        authorization: "Bearer t0",
        accept: "application/json",
        "accept-encoding": "gzip,deflate",
        "content-type": "application/merge-patch+json",
        "content-length": String(Buffer.byteLength(body)),
        "x-custom": "1",
        connection: "keep-alive",
      },
      body: Buffer.from(body),
    });
    expect(fetched).toEqual({ ...sent, headers: { ...sent?.headers, "user-agent": NODE_FETCH_UA } });

    expect(ours.httpStatusCode).toBe(201);
    expect(ours.headers).toEqual({
      "content-type": "application/json",
      "x-multi": "a, b",
      "set-cookie": "x=1, y=2",
      "content-length": String(Buffer.byteLength(reply)),
      connection: "keep-alive",
      "keep-alive": "timeout=5",
    });
    expect(await ours.body.text()).toBe(reply);
    expect(await ours.body.binary()).toEqual(Buffer.from(reply));
    expect([theirs.httpStatusCode, theirs.headers, await theirs.body.text()]).toEqual([201, ours.headers, reply]);
  });

  it("sends bytes over plain http with the http agent of an insecure cluster, and returns bytes", async () => {
    plain.handler = (_req, res, body) => res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(body);
    const bytes = new Uint8Array([0, 1, 0xfe, 0xff, 0x80]);
    const context = await request(plain, HttpMethod.POST, "/upload", { body: bytes });
    expect(requestAgent(context)?.constructor).toBe(http.Agent);
    const response = await send(transport, context);
    expect(plain.seen[0]?.body).toEqual(Buffer.from(bytes));
    expect(plain.seen[0]?.headers["content-length"]).toBe("5");
    expect(plain.seen[0]?.headers["content-type"]).toBeUndefined();
    expect(await response.body.binary()).toEqual(Buffer.from(bytes));
  });

  it.each([
    [HttpMethod.GET, undefined, undefined],
    [HttpMethod.DELETE, undefined, undefined],
    [HttpMethod.POST, undefined, "0"],
    [HttpMethod.PUT, undefined, "0"],
    [HttpMethod.DELETE, '{"propagationPolicy":"Background"}', "34"],
  ])("%s with body %s sends Content-Length %s, as node-fetch does", async (method, body, length) => {
    const init = body === undefined ? {} : { body, headers: { "Content-Type": "application/json" } };
    await send(transport, await request(plain, method, "/x", init));
    await send(nodeFetch, await request(plain, method, "/x", init));
    expect(plain.seen.map((s) => [s.headers["content-length"], s.body.toString()])).toEqual([
      [length, body ?? ""],
      [length, body ?? ""],
    ]);
  });

  const big = JSON.stringify({ items: Array.from({ length: 5_000 }, (_, i) => ({ name: `pod-${i}`, note: "é☃" })) });
  it.each<[string, string, (data: Buffer) => Buffer]>([
    ["gzip", "gzip", (data) => zlib.gzipSync(data)],
    ["x-gzip", "x-gzip", (data) => zlib.gzipSync(data)],
    ["deflate (zlib-wrapped)", "deflate", (data) => zlib.deflateSync(data)],
    ["deflate (raw)", "deflate", (data) => zlib.deflateRawSync(data)],
    ["br", "br", (data) => zlib.brotliCompressSync(data)],
  ])("decodes a %s response", async (_name, coding, compress) => {
    secure.handler = (_req, res) =>
      res.writeHead(200, { "Content-Encoding": coding, "Content-Type": "application/json" }).end(compress(Buffer.from(big)));
    const response = await send(transport, await request(secure, HttpMethod.GET, "/api/v1/pods"));
    expect(await response.body.text()).toBe(big);
    expect(response.headers["content-encoding"]).toBe(coding);
  });

  it("follows no redirect: the 3xx is the response", async () => {
    plain.handler = (_req, res) => res.writeHead(302, { Location: "/elsewhere" }).end();
    const response = await send(transport, await request(plain, HttpMethod.GET, "/api"));
    expect([response.httpStatusCode, response.headers["location"]]).toEqual([302, "/elsewhere"]);
    expect(plain.seen.map((s) => s.url)).toEqual(["/api"]);
  });

  describe("aborts", () => {
    it.each([
      ["before the response", (_res: http.ServerResponse) => undefined],
      ["in the middle of the body", (res: http.ServerResponse) => void res.writeHead(200, { "Content-Length": "100" }).write("{")],
    ])("%s: rejects with an AbortError at once", async (_when, stall) => {
      secure.handler = (_req, res) => stall(res);
      const controller = new AbortController();
      const context = await request(secure, HttpMethod.GET, "/slow");
      context.setSignal(controller.signal);
      const pending = send(transport, context);
      while (secure.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = Date.now();
      const reason = new Error("stop");
      controller.abort(reason);
      const err = await failure(pending);
      expect(Date.now() - started).toBeLessThan(500);
      expect([err.name, err.code, err.cause]).toEqual(["AbortError", "ABORT_ERR", reason]);
    });

    it("an already aborted signal: rejects without sending", async () => {
      const reason = new Error("gone");
      const context = await request(secure, HttpMethod.GET, "/never");
      context.setSignal(AbortSignal.abort(reason));
      const err = await failure(send(transport, context));
      expect([err.name, err.code, err.cause]).toEqual(["AbortError", "ABORT_ERR", reason]);
      expect(secure.seen).toHaveLength(0);
    });

    it("a signal aborted after the response changes nothing", async () => {
      const controller = new AbortController();
      const context = await request(secure, HttpMethod.GET, "/fast");
      context.setSignal(controller.signal);
      const response = await send(transport, context);
      controller.abort();
      expect(await response.body.text()).toBe("{}");
    });
  });

  it("rejects with Node's ECONNREFUSED when nothing listens", async () => {
    const gone = await startServer(undefined);
    await gone.close();
    const kc = kubeConfigFor(gone.url, { skipTLSVerify: true });
    const context = new RequestContext(`${gone.url}/api`, HttpMethod.GET);
    await kc.applySecurityAuthentication(context);
    expect((await failure(send(transport, context))).code).toBe("ECONNREFUSED");
  });

  it("rejects, never hangs, when the connection drops in the middle of the body", async () => {
    secure.handler = (req, res) => {
      res.writeHead(200, { "Content-Length": "100" }).write("{", () => req.socket.destroy());
    };
    const err = await failure(send(transport, await request(secure, HttpMethod.GET, "/cut")));
    expect(err.code).toBe("ECONNRESET");
  });

  it("hands a body other than a string or bytes to client-node's default library", async () => {
    const context = await request(plain, HttpMethod.POST, "/form");
    context.setBody(new URLSearchParams({ a: "1", b: "é" }));
    const response = await send(transport, context);
    expect(response.httpStatusCode).toBe(200);
    expect(plain.seen[0]?.headers["user-agent"]).toBe(NODE_FETCH_UA);
    expect(plain.seen[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    expect(plain.seen[0]?.body.toString()).toBe("a=1&b=%C3%A9");
  });
});

describe.runIf(clientNodeMajor === 1)(
  "createHttpsTransport under client-node 1's generated API (not run on client-node 2: refused there)",
  () => {
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "ns", labels: { a: "1" } },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    };
    const notFound = { kind: "Status", apiVersion: "v1", status: "Failure", message: 'pods "q" not found', reason: "NotFound", code: 404 };

    it("deserializes objects and builds ApiExceptions, over one connection", async () => {
      secure.handler = (req, res) => {
        const found = req.url === "/api/v1/namespaces/ns/pods/p";
        res.writeHead(found ? 200 : 404, { "Content-Type": "application/json" }).end(JSON.stringify(found ? pod : notFound));
      };
      const connections = secure.connections;
      const core = new CoreV1Api(
        createConfiguration({
          baseServer: new ServerConfiguration(secure.url, {}),
          authMethods: { default: secureAuth },
          httpApi: transport,
        }),
      );
      const read = await core.readNamespacedPod({ name: "p", namespace: "ns" });
      expect(read.metadata?.labels).toEqual({ a: "1" });
      expect(read.spec?.containers[0]?.image).toBe("busybox");
      const err = await failure(core.readNamespacedPod({ name: "q", namespace: "ns" }));
      expect(err).toBeInstanceOf(ApiException);
      expect(statusCode(err)).toBe(404);
      expect(JSON.parse((err as unknown as ApiException<string>).body)).toEqual(notFound);
      await core.readNamespacedPod({ name: "p", namespace: "ns" });
      expect(secure.connections - connections).toBeLessThanOrEqual(1);
    });

    it.each([
      [{}, NODE_FETCH_UA],
      [{ transport: "fetch" as const }, NODE_FETCH_UA],
      [{ transport: "node" as const }, undefined],
    ])("createClients(kc, %o) sends with User-Agent %s", async (options, userAgent) => {
      const clients = createClients(kubeConfigFor(plain.url, { skipTLSVerify: true }), options);
      plain.handler = (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(pod));
      try {
        await clients.core.readNamespacedPod({ name: "p", namespace: "ns" });
        expect(plain.seen[0]?.headers["user-agent"]).toBe(userAgent);
      } finally {
        clients.close();
      }
    });
  },
);

describe.runIf(clientNodeMajor >= 2)("createHttpsTransport on client-node 2 (not run on client-node 1, where it works)", () => {
  it("refuses: client-node 2's RequestContext carries an undici dispatcher, no agent", () => {
    const refusal = (() => {
      try {
        createHttpsTransport();
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(isCocoonError(refusal) ? refusal.code : refusal).toBe("ERR_INVALID_ARGUMENT");
    expect((refusal as Error).message).toBe(
      `the node:https transport needs client-node 1's agents; client-node ${clientNodeVersion} sends through undici dispatchers`,
    );
  });
});

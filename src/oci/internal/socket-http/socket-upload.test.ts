// Requests with a body over socketFetch, against Node's own HTTP server: a push's POST, PATCHes and
// PUTs go this way, so that a push never loads Node's fetch.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlabPool } from "../../../internal/body-slabs.js";
import { streamBody } from "../body-stream.js";
import { socketFetch } from "./socket-fetch.js";

interface Seen {
  readonly method: string;
  readonly length: string | undefined;
  readonly body: string;
}
const seen: Seen[] = [];
let early = false;
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    if (early) {
      res.writeHead(401, { "content-length": "0", connection: "close" }).end();
      return;
    }
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", length: req.headers["content-length"], body: Buffer.concat(parts).toString() });
      res.writeHead(202, { location: "/next", "content-length": "2" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/vm/blobs/uploads/x`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fallbackCalls: string[] = [];
const fallback = ((_input: unknown, init?: RequestInit) => {
  fallbackCalls.push(init?.method ?? "GET");
  return Promise.resolve(new Response(null, { status: 599 }));
}) as typeof fetch;
const send = socketFetch({ methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"], fallback, slabs: new SlabPool() });

async function* pieces(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield await Promise.resolve(Buffer.from(p));
}

const streamed = (length: number, source: AsyncIterable<Uint8Array>): RequestInit & { duplex: "half" } => ({
  method: "PATCH",
  headers: { "content-length": String(length) },
  body: streamBody(source),
  duplex: "half",
});

async function failure(promise: Promise<unknown>): Promise<[string, string]> {
  const err = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as Error | undefined;
  return [err?.message ?? "resolved", (err?.cause as Error | undefined)?.message ?? ""];
}

describe("socketFetch with a request body", () => {
  it("writes a stream body of its declared length as it comes, and reads the answer", async () => {
    seen.length = 0;
    const response = await send(url, streamed(11, pieces("hello", " ", "world")));
    expect([response.status, response.headers.get("location"), await response.text()]).toEqual([202, "/next", "ok"]);
    expect(seen).toEqual([{ method: "PATCH", length: "11", body: "hello world" }]);
  });

  it("pulls a streamBody stream's pieces from its source, leaving the web stream unread", async () => {
    seen.length = 0;
    const lockedWhileSent: boolean[] = [];
    async function* watched(): AsyncGenerator<Uint8Array> {
      for (const p of ["a", "bc"]) {
        lockedWhileSent.push(body.locked);
        yield await Promise.resolve(Buffer.from(p));
      }
    }
    const body = streamBody(watched());
    await (await send(url, { method: "PATCH", headers: { "content-length": "3" }, body, duplex: "half" })).text();
    expect(seen).toEqual([{ method: "PATCH", length: "3", body: "abc" }]);
    expect(lockedWhileSent).toEqual([false, false]);
  });

  it("reads any other stream through its reader, and a streamBody stream already locked as a stream", async () => {
    seen.length = 0;
    const foreign = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from("xy"));
        controller.close();
      },
    });
    await (await send(url, { method: "PATCH", headers: { "content-length": "2" }, body: foreign, duplex: "half" })).text();
    const locked = streamBody(pieces("z"));
    const reader = locked.getReader();
    const failed = await failure(send(url, { method: "PATCH", headers: { "content-length": "1" }, body: locked, duplex: "half" }));
    reader.releaseLock();
    expect(seen).toEqual([{ method: "PATCH", length: "2", body: "xy" }]);
    expect(failed[0]).toBe("fetch failed");
    expect(failed[1]).toMatch(/locked/u);
  });

  it("sizes a Uint8Array body itself, and sends Content-Length 0 for a POST without one", async () => {
    seen.length = 0;
    await (await send(url, { method: "PUT", body: Buffer.from("manifest") })).text();
    await (await send(url, { method: "POST" })).text();
    expect(seen).toEqual([
      { method: "PUT", length: "8", body: "manifest" },
      { method: "POST", length: "0", body: "" },
    ]);
  });

  it("leaves to the fallback a stream without a Content-Length, a string body, a Request", async () => {
    fallbackCalls.length = 0;
    await send(url, { method: "PATCH", body: streamBody(pieces("x")), duplex: "half" });
    await send(url, { method: "PUT", body: "text" });
    await send(new Request(url, { method: "DELETE" }));
    expect(fallbackCalls).toEqual(["PATCH", "PUT", "GET"]);
  });

  it("refuses a stream shorter or longer than its Content-Length, as fetch fails", async () => {
    expect(await failure(send(url, streamed(5, pieces("abc"))))).toEqual([
      "fetch failed",
      "request body of 3 bytes, shorter than its Content-Length 5",
    ]);
    expect(await failure(send(url, streamed(5, pieces("abc", "def"))))).toEqual([
      "fetch failed",
      "request body longer than its Content-Length 5",
    ]);
  });

  it("fails with the body's own error as the cause", async () => {
    // eslint-disable-next-line require-yield -- a body that fails before its first piece
    async function* broken(): AsyncGenerator<Uint8Array> {
      await Promise.resolve();
      throw new Error("disk gone");
    }
    expect(await failure(send(url, streamed(5, broken())))).toEqual(["fetch failed", "disk gone"]);
  });

  it("stops reading the body once the peer answered before taking it", async () => {
    early = true;
    let asked = 0;
    let stopped = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) {
          asked++;
          yield await new Promise<Uint8Array>((resolve) => setTimeout(() => resolve(Buffer.alloc(1 << 16)), 5));
        }
      } finally {
        stopped = true;
      }
    }
    try {
      const response = await send(url, streamed(2 ** 40, endless()));
      expect(response.status).toBe(401);
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(true);
      expect(asked).toBeLessThan(20);
    } finally {
      early = false;
    }
  });
});

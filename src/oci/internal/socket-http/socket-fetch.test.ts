import { createHash } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createServer as createHTTPSServer } from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestPKI } from "../../../../test/hostile/support/test-ca.js";
import { isRegistryError } from "../../errors.js";
import { OCIRegistry } from "../../oci-registry.js";
import { SlabPool } from "../../../internal/body-slabs.js";
import { socketFetch } from "./socket-fetch.js";

// A raw TCP peer that answers each connection with whatever bytes a test scripts, as a broken or
// hostile registry would, reached through OCIRegistry's default wiring (blob bodies over socketFetch).
const BLOB = Buffer.from("the bytes of one blob, small enough to read in one go\n".repeat(20));
const DIGEST = `sha256:${createHash("sha256").update(BLOB).digest("hex")}`;
const TIMEOUT_MS = 300;

type Script = (socket: Socket, request: string) => void;
let script: Script = (socket) => socket.destroy();
const requests: string[] = [];
let server: Server;
let host = "";

beforeAll(async () => {
  server = createServer((socket) => {
    let seen = "";
    socket.on("error", () => undefined);
    socket.on("data", (d: Buffer) => {
      const before = seen.includes("\r\n\r\n");
      seen += d.toString("latin1");
      if (before || !seen.includes("\r\n\r\n")) return;
      requests.push(seen);
      script(socket, seen);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const registry = (): OCIRegistry => new OCIRegistry(host, { retries: 0, timeoutMs: TIMEOUT_MS, deadlineMs: 2_000 });
const head = (lines: string[]): string => `${lines.join("\r\n")}\r\n\r\n`;
const ok = (extra: string[] = []): string => head(["HTTP/1.1 200 OK", `Content-Length: ${BLOB.length}`, ...extra]);

async function read(signal?: AbortSignal): Promise<Buffer> {
  const stream = await registry().getBlob("vm", DIGEST, signal ? { signal } : {});
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part as Uint8Array);
  return Buffer.concat(parts);
}

async function failure(promise: Promise<unknown>): Promise<[string, string]> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRegistryError(err)) throw new Error(`expected a RegistryError, got ${String(err)}`);
  return [err.code, err.message];
}

const what = `get blob vm@${DIGEST}`;

describe("a blob body from a well-behaved peer", () => {
  it("sends one request head, exactly, and reads a Content-Length body", async () => {
    requests.length = 0;
    script = (socket) => socket.end(Buffer.concat([Buffer.from(ok()), BLOB]));
    expect(await read()).toEqual(BLOB);
    expect(requests).toEqual([`GET /v2/vm/blobs/${DIGEST} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`]);
  });

  it("reads a chunked body, an interim 103 and a body sent a byte at a time", async () => {
    script = (socket) => {
      const chunked = Buffer.concat([
        Buffer.from(`${BLOB.length.toString(16)};ext=1\r\n`),
        BLOB,
        Buffer.from("\r\n0\r\nx-trailer: y\r\n\r\n"),
      ]);
      socket.end(
        Buffer.concat([
          Buffer.from(head(["HTTP/1.1 103 Early Hints", "Link: </a>"])),
          Buffer.from(head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])),
          chunked,
        ]),
      );
    };
    expect(await read()).toEqual(BLOB);
    script = (socket) => {
      const all = Buffer.concat([Buffer.from(ok()), BLOB]);
      let i = 0;
      const drip = (): void => {
        if (socket.destroyed) return;
        socket.write(all.subarray(i, i + 97));
        i += 97;
        if (i < all.length) setImmediate(drip);
        else socket.end();
      };
      drip();
    };
    expect(await read()).toEqual(BLOB);
  });

  it("reads a body delimited by the connection's close, and ignores bytes past a Content-Length", async () => {
    script = (socket) => socket.end(Buffer.concat([Buffer.from(head(["HTTP/1.1 200 OK"])), BLOB]));
    expect(await read()).toEqual(BLOB);
    script = (socket) => socket.end(Buffer.concat([Buffer.from(ok()), BLOB, Buffer.from("HTTP/1.1 200 OK\r\n\r\nsmuggled")]));
    expect(await read()).toEqual(BLOB);
  });
});

describe("a body sent after its head, read straight into the body's memory", () => {
  /** Writes the head, then the body in pieces, each once the peer has had time to read the one before. */
  const separately = (headText: string, pieces: Buffer[]): Script => {
    return (socket) => {
      const all = [Buffer.from(headText), ...pieces];
      const next = (): void => {
        const piece = all.shift();
        if (socket.destroyed) return;
        if (piece === undefined) socket.end();
        else socket.write(piece, () => setTimeout(next, 5));
      };
      next();
    };
  };

  it("a small body, and nothing past its Content-Length", async () => {
    script = separately(ok(), [BLOB.subarray(0, 100), Buffer.concat([BLOB.subarray(100), Buffer.from("HTTP/1.1 200 OK\r\n\r\nsmuggled")])]);
    expect(await read()).toEqual(BLOB);
  });

  it("a body over several slabs, exactly, and one delimited by the connection's close", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
    const pieces = [big.subarray(0, 777), big.subarray(777, 2_000_000), big.subarray(2_000_000), Buffer.from("past the end")];
    const send = socketFetch({ methods: ["GET"], fallback: () => Promise.reject(new Error("not this one")), slabs: new SlabPool() });
    script = separately(head(["HTTP/1.1 200 OK", `Content-Length: ${big.length}`]), pieces);
    expect(Buffer.from(await (await send(`http://${host}/big`)).arrayBuffer()).equals(big)).toBe(true);
    script = separately(head(["HTTP/1.1 200 OK"]), pieces.slice(0, 3));
    expect(Buffer.from(await (await send(`http://${host}/big`)).arrayBuffer()).equals(big)).toBe(true);
  });
});

describe("socketFetch's own answer", () => {
  const send = socketFetch({ methods: ["GET", "HEAD"], fallback: () => Promise.reject(new Error("not this one")), slabs: new SlabPool() });

  it("joins a repeated header with ', ', reads names in any case, and has no body for a HEAD", async () => {
    script = (socket) => socket.end(head(["HTTP/1.1 200 Fine", "X-Two: a", "x-two: b", "Content-Length: 5"]));
    const answer = await send(`http://${host}/v2/`, { method: "HEAD" });
    expect([
      answer.status,
      answer.statusText,
      answer.ok,
      answer.headers.get("X-TWO"),
      answer.headers.get("content-length"),
      answer.body,
    ]).toEqual([200, "Fine", true, "a, b", "5", null]);
    expect(answer).not.toBeInstanceOf(Response);
  });

  it("refuses a header value with CR LF, sending nothing", async () => {
    requests.length = 0;
    const refused = send(`http://${host}/v2/`, { headers: { accept: "a\r\nx-injected: 1" } });
    await expect(refused).rejects.toThrow(new TypeError('Headers: invalid value for header "accept"'));
    expect(requests).toEqual([]);
  });
});

describe("a blob body from a broken or hostile peer", () => {
  it.each([
    ["a head over 64 KiB", () => `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n`, "response head over 65536 bytes"],
    ["a head over 64 KiB, complete", () => head(["HTTP/1.1 200 OK", `x-big: ${"a".repeat(70_000)}`]), "response head over 65536 bytes"],
    ["an HTTP/2 status line", () => head(["HTTP/2 200"]), 'malformed status line "HTTP/2 200"'],
    ["a head in bare LFs (never complete)", () => "HTTP/1.1 200 OK\nContent-Length: 3\n\nabc", "connection closed before a response"],
    ["a folded header", () => head(["HTTP/1.1 200 OK", "x-a: 1", " folded"]), 'malformed header line " folded"'],
    ["a NUL in a header", () => head(["HTTP/1.1 200 OK", "x-a: 1\u0000"]), 'malformed header line "x-a: 1\\u0000"'],
    ["status 600", () => head(["HTTP/1.1 600 Nope", "Content-Length: 0"]), "invalid status 600"],
    ["a 101 switch", () => head(["HTTP/1.1 101 Switching Protocols"]), "unexpected 101 response"],
    ["nine interim answers", () => head(["HTTP/1.1 100 Continue"]).repeat(9), "unexpected 100 response"],
    [
      "Transfer-Encoding with Content-Length",
      () => head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "Content-Length: 5"]),
      "both Transfer-Encoding and Content-Length",
    ],
    [
      "gzip transfer coding",
      () => head(["HTTP/1.1 200 OK", "Transfer-Encoding: gzip, chunked"]),
      'unsupported Transfer-Encoding "gzip, chunked"',
    ],
    [
      "Content-Lengths that disagree",
      () => head(["HTTP/1.1 200 OK", "Content-Length: 5", "Content-Length: 6"]),
      'invalid Content-Length "5, 6"',
    ],
    ["a negative Content-Length", () => head(["HTTP/1.1 200 OK", "Content-Length: -1"]), 'invalid Content-Length "-1"'],
    ["no answer before the close", () => "", "connection closed before a response"],
  ])("%s: ERR_REGISTRY_TRANSPORT naming it, no retry", async (_name, answer, message) => {
    requests.length = 0;
    script = (socket) => socket.end(answer());
    expect(await failure(read())).toEqual(["ERR_REGISTRY_TRANSPORT", `${what}: ${message}`]);
    expect(requests.length).toBe(1);
  });

  it.each([
    ["a short body", () => Buffer.concat([Buffer.from(ok()), BLOB.subarray(0, 100)]), "connection closed before the body ended"],
    [
      "a chunk size that is not hex",
      () => Buffer.from(`${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}zz\r\n`),
      'malformed chunk size "zz"',
    ],
    [
      "a chunk longer than its size",
      () => Buffer.from(`${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}2\r\nabc\r\n`),
      "chunk data longer than its size",
    ],
    [
      "a chunked body cut short",
      () => Buffer.concat([Buffer.from(head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])), Buffer.from("10\r\nabc")]),
      "connection closed before the body ended",
    ],
  ])("%s: the stream fails with ERR_REGISTRY_TRANSPORT naming it", async (_name, answer, message) => {
    script = (socket) => socket.end(answer());
    expect(await failure(read())).toEqual(["ERR_REGISTRY_TRANSPORT", `${what}: ${message}`]);
  });

  it("a body that is not the blob: ERR_REGISTRY_DIGEST_MISMATCH", async () => {
    const other = Buffer.from(BLOB);
    other[0] = 0;
    script = (socket) => socket.end(Buffer.concat([Buffer.from(ok()), other]));
    const [code] = await failure(read());
    expect(code).toBe("ERR_REGISTRY_DIGEST_MISMATCH");
  });

  it("a head that never ends, and a body that stalls, each end in the stall timeout", { timeout: 5_000 }, async () => {
    script = (socket) => {
      socket.write("HTTP/1.1 200 OK\r\n");
      const timer = setInterval(() => socket.write("x-a: b\r\n"), 20);
      socket.on("close", () => clearInterval(timer));
    };
    const started = performance.now();
    expect(await failure(read())).toEqual(["ERR_REGISTRY_TIMEOUT", `${what}: no answer within ${TIMEOUT_MS} ms`]);
    expect(performance.now() - started).toBeLessThan(1_500);
    script = (socket) => socket.write(Buffer.concat([Buffer.from(ok()), BLOB.subarray(0, 10)]));
    expect(await failure(read())).toEqual(["ERR_REGISTRY_TIMEOUT", `${what}: no data for ${TIMEOUT_MS} ms`]);
  });

  it("an abort mid-body rejects with the caller's reason and closes the connection", async () => {
    let closed!: Promise<void>;
    script = (socket) => {
      closed = new Promise((resolve) => socket.on("close", () => resolve()));
      socket.write(Buffer.concat([Buffer.from(ok()), BLOB.subarray(0, 10)]));
    };
    const controller = new AbortController();
    const reason = new Error("stop");
    const stream = await registry().getBlob("vm", DIGEST, { signal: controller.signal });
    const reading = (async () => {
      for await (const _ of stream) controller.abort(reason);
    })();
    await expect(reading).rejects.toBe(reason);
    await closed;
  });
});

describe("over TLS", () => {
  it("reads a body from a server the given CA signed, and refuses one it did not", async () => {
    const [trusted, stranger] = [makeTestPKI(["127.0.0.1"]), makeTestPKI(["127.0.0.1"])];
    const tls = createHTTPSServer({ ...trusted.server }, (_req, res) =>
      res.writeHead(200, { "content-length": String(BLOB.length) }).end(BLOB),
    );
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v2/vm/blobs/${DIGEST}`;
    const fallback = (() => Promise.reject(new Error("not this one"))) as typeof fetch;
    try {
      const response = await socketFetch({ ca: trusted.ca, fallback, slabs: new SlabPool() })(url);
      expect([response.status, Buffer.from(await response.arrayBuffer())]).toEqual([200, BLOB]);
      const refused: unknown = await socketFetch({ ca: stranger.ca, fallback, slabs: new SlabPool() })(url).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(TypeError);
      expect([(refused as Error).message, ((refused as Error).cause as NodeJS.ErrnoException).code]).toEqual([
        "fetch failed",
        "CERT_SIGNATURE_FAILURE", // the stranger CA has the same name, not the same key
      ]);
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it("reads a body sent apart from its head straight into its memory, over several slabs, exactly", async () => {
    const pki = makeTestPKI(["127.0.0.1"]);
    const big = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
    const tls = createHTTPSServer({ ...pki.server }, (_req, res) => {
      res.writeHead(200, { "content-length": String(big.length) }).flushHeaders();
      setTimeout(() => {
        res.write(big.subarray(0, 1_000_000));
        setTimeout(() => res.end(big.subarray(1_000_000)), 20);
      }, 20);
    });
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const fallback = (() => Promise.reject(new Error("not this one"))) as typeof fetch;
    try {
      const response = await socketFetch({ ca: pki.ca, fallback, slabs: new SlabPool() })(
        `https://127.0.0.1:${(tls.address() as AddressInfo).port}/big`,
      );
      expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});

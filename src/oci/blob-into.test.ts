// A blob body received straight into the caller's buffer (`GetBlobOptions.into`): in place, checked
// as any other, and never written to once its stream has settled or been destroyed.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readVerifiedBlob } from "../snapshot/pull/blob-reader.js";
import { sha256Digest } from "./digest.js";
import { OCIRegistry } from "./oci-registry.js";

/** Several reads' worth, not a whole number of slabs. */
const BLOB = randomBytes(3 * 2 ** 20 + 12_345);
const DIGEST = sha256Digest(BLOB);
const SENTINEL = 0xa5;

/** A registry that answers each blob GET with `answer`, given the socket once the request head is in. */
async function startBlobServer(answer: (socket: Socket) => void): Promise<{ host: string; server: Server; closed: Promise<void>[] }> {
  const closed: Promise<void>[] = [];
  const server = createServer((socket) => {
    closed.push(new Promise((resolve) => socket.once("close", () => resolve())));
    let head = "";
    socket.on("data", (data: Buffer) => {
      if (head.includes("\r\n\r\n")) return;
      head += data.toString("latin1");
      if (head.includes("\r\n\r\n")) answer(socket);
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, server, closed };
}

const headOf = (length: number): string => `HTTP/1.1 200 OK\r\ncontent-length: ${length}\r\n\r\n`;
const marked = (n: number): Buffer => Buffer.alloc(n, SENTINEL);
const until = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let servers: Server[] = [];
afterEach(() => {
  for (const server of servers) server.close();
  servers = [];
});

async function blobServer(answer: (socket: Socket) => void): Promise<{ host: string; closed: Promise<void>[] }> {
  const started = await startBlobServer(answer);
  servers.push(started.server);
  return started;
}

describe("a blob body received into the caller's buffer", () => {
  it("hands out views of that buffer, each where its bytes belong, and fills it with the blob", async () => {
    const { host } = await blobServer((socket) => socket.end(Buffer.concat([Buffer.from(headOf(BLOB.length)), BLOB])));
    const into = marked(BLOB.length);
    const pieces: Uint8Array[] = [];
    for await (const piece of await new OCIRegistry(host).getBlob("vm", DIGEST, { into })) pieces.push(piece as Uint8Array);
    let at = 0;
    for (const piece of pieces) {
      expect([piece.buffer === into.buffer, piece.byteOffset]).toEqual([true, at]);
      at += piece.byteLength;
    }
    expect(at).toBe(BLOB.length);
    expect(into.equals(BLOB)).toBe(true);
  });

  it.each([
    ["a small body (its own buffer)", 300 * 1024],
    ["a body of several slabs", BLOB.length],
  ])("takes %s whose first bytes came with the head and the rest later, in place", async (_name, size) => {
    const blob = BLOB.subarray(0, size);
    const { host } = await blobServer((socket) => {
      socket.write(Buffer.concat([Buffer.from(headOf(size)), blob.subarray(0, 1000)]));
      setTimeout(() => socket.write(blob.subarray(1000, 5000)), 20);
      setTimeout(() => socket.end(blob.subarray(5000)), 40);
    });
    const desc = { mediaType: "application/octet-stream", digest: sha256Digest(blob), size };
    const into = marked(size);
    const read = await readVerifiedBlob(new OCIRegistry(host), "vm", desc, undefined, into);
    expect([read.buffer === into.buffer, into.equals(blob)]).toEqual([true, true]);
  });

  it("leaves a buffer of another length alone, and hands out the body from its own memory", async () => {
    const { host } = await blobServer((socket) => socket.end(Buffer.concat([Buffer.from(headOf(BLOB.length)), BLOB])));
    const into = marked(BLOB.length - 1);
    const pieces: Uint8Array[] = [];
    for await (const piece of await new OCIRegistry(host).getBlob("vm", DIGEST, { into })) pieces.push(piece as Uint8Array);
    expect(pieces.some((p) => p.buffer === into.buffer)).toBe(false);
    expect(Buffer.concat(pieces).equals(BLOB)).toBe(true);
    expect(into.every((b) => b === SENTINEL)).toBe(true);
  });

  it("still checks the digest: a body of the right length and other bytes fails the read", async () => {
    const other = Buffer.from(BLOB);
    other.writeUInt8(other.readUInt8(BLOB.length - 1) ^ 1, BLOB.length - 1);
    const { host } = await blobServer((socket) => socket.end(Buffer.concat([Buffer.from(headOf(BLOB.length)), other])));
    const desc = { mediaType: "application/octet-stream", digest: DIGEST, size: BLOB.length };
    await expect(readVerifiedBlob(new OCIRegistry(host), "vm", desc, undefined, marked(BLOB.length))).rejects.toMatchObject({
      code: "ERR_SNAPSHOT_INTEGRITY",
      message: expect.stringContaining("digest mismatch") as unknown,
    });
  });

  it("is written to no more once an aborted read has settled, though the peer goes on sending", async () => {
    const half = BLOB.length >> 1;
    let rest: (() => void) | undefined;
    const { host, closed } = await blobServer((socket) => {
      socket.write(Buffer.concat([Buffer.from(headOf(BLOB.length)), BLOB.subarray(0, half)]));
      rest = () => socket.end(BLOB.subarray(half));
    });
    const into = marked(BLOB.length);
    const abort = new AbortController();
    const desc = { mediaType: "application/octet-stream", digest: DIGEST, size: BLOB.length };
    const read = readVerifiedBlob(new OCIRegistry(host), "vm", desc, abort.signal, into);
    await until(100);
    abort.abort(new Error("stop"));
    await expect(read).rejects.toThrow("stop");
    rest?.();
    await Promise.all(closed);
    await until(50);
    expect(into.subarray(0, half).equals(BLOB.subarray(0, half))).toBe(true);
    expect(into.subarray(half).every((b) => b === SENTINEL)).toBe(true);
  });

  it("is written to no more once a stream destroyed unread has closed, and its connection closes", async () => {
    const first = 64 * 1024;
    let rest: (() => void) | undefined;
    const { host, closed } = await blobServer((socket) => {
      socket.write(Buffer.concat([Buffer.from(headOf(BLOB.length)), BLOB.subarray(0, first)]));
      rest = () => socket.end(BLOB.subarray(first));
    });
    const into = marked(BLOB.length);
    const stream = await new OCIRegistry(host).getBlob("vm", DIGEST, { into });
    stream.destroy();
    await once(stream, "close");
    rest?.();
    await Promise.all(closed);
    await until(50);
    expect(into.subarray(first).every((b) => b === SENTINEL)).toBe(true);
  });
});

describe("a blob stream destroyed before it is read", () => {
  it.each([
    ["the package's own client", {}],
    ["a fetch of the caller's", { fetch: globalThis.fetch }],
  ])("closes its connection, on %s", async (_name, options) => {
    let hang: (() => void) | undefined;
    const { host, closed } = await blobServer((socket) => {
      socket.write(Buffer.concat([Buffer.from(headOf(BLOB.length)), BLOB.subarray(0, 1000)]));
      hang = () => socket.destroy();
    });
    const stream = await new OCIRegistry(host, options).getBlob("vm", DIGEST);
    stream.destroy();
    const outcome = await Promise.race([Promise.all(closed).then(() => "closed"), until(2000).then(() => "still open")]);
    hang?.();
    expect(outcome).toBe("closed");
  });
});

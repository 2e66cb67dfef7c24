// The slabs a blob body is received into belong to that body and to its registry's pool: only the
// caller that got the body frees them, and freeing never reaches another caller's or registry's bytes.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SlabPool } from "../internal/body-slabs.js";
import { verifiedBlob } from "../snapshot/pull/blob-reader.js";
import { sha256Digest } from "./digest.js";
import { directReadable } from "./internal/direct-readable.js";
import { OCIRegistry } from "./oci-registry.js";
import type { BlobSlabs, Downloader } from "./registry.js";

/** Several 1 MiB slabs' worth, not a whole number of them. */
const BLOB = randomBytes(3 * 2 ** 20 + 12_345);
const DIGEST = sha256Digest(BLOB);
const desc = { mediaType: "application/octet-stream", digest: DIGEST, size: BLOB.length };

let server: Server;
let host: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === "GET" && req.url === `/v2/vm/blobs/${DIGEST}`)
      return void res.writeHead(200, { "content-length": BLOB.length }).end(BLOB);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

/** A body of `registry` read to its end, its pieces kept as the stream gave them (views, not copies), with the slabs it was lent. */
async function readKept(registry: OCIRegistry): Promise<{ pieces: Uint8Array[]; slabs: BlobSlabs }> {
  let held: { body: object; slabs: BlobSlabs } | undefined;
  const body = await registry.getBlob("vm", DIGEST, { onSlabs: (b, slabs) => (held = { body: b, slabs }) });
  const pieces: Uint8Array[] = [];
  for await (const piece of body) pieces.push(piece as Uint8Array);
  if (held?.body !== body) throw new Error("the registry lent no slabs for its stream");
  return { pieces, slabs: held.slabs };
}

const joined = (pieces: readonly Uint8Array[]): Buffer => Buffer.concat(pieces);

/** A pull's read of the blob through `dl`, as a layer passed through is read: each piece copied, then its slab freed. */
async function readFreeing(dl: Downloader): Promise<Buffer> {
  const blob = verifiedBlob(dl, "vm", desc);
  const copies: Buffer[] = [];
  for await (const piece of blob) {
    copies.push(Buffer.from(piece));
    blob.free(piece);
  }
  return Buffer.concat(copies);
}

describe("a blob body's slabs are its reader's, in its registry's pool", () => {
  it("lends a body's slabs to the caller that asks, for the very stream it returns, and frees them only through it", async () => {
    const registry = new OCIRegistry(host);
    const { pieces, slabs } = await readKept(registry);
    expect(joined(pieces).equals(BLOB)).toBe(true);
    const lasts = pieces.filter((p) => slabs.endsSlab(p));
    expect(lasts.length).toBeGreaterThanOrEqual(3); // 3 MiB and more: at least three slabs filled and retired
    for (const piece of pieces) slabs.free(piece);
    // Every piece of a retired slab now reads as empty; what is left is the tail slab, never retired, and exactly the blob's end.
    const alive = pieces.filter((p) => p.byteLength > 0);
    expect(new Set(alive.map((p) => p.buffer)).size).toBe(1);
    const aliveBytes = alive.reduce((n, p) => n + p.byteLength, 0);
    expect(aliveBytes).toBeLessThan(2 ** 20);
    expect(joined(alive).equals(BLOB.subarray(BLOB.length - aliveBytes))).toBe(true);
  });

  it("never frees through one registry's slabs a buffer of another registry's body", async () => {
    const one = await readKept(new OCIRegistry(host));
    const other = await readKept(new OCIRegistry(host));
    expect(other.pieces.filter((p) => one.slabs.endsSlab(p))).toEqual([]);
    for (const piece of other.pieces) one.slabs.free(piece);
    for (const piece of one.pieces) one.slabs.free(piece); // frees `one`'s own retired slabs
    expect(joined(other.pieces).equals(BLOB)).toBe(true);
    expect(one.pieces.some((p) => p.byteLength === 0)).toBe(true);
  });

  it("never frees through one body's slabs a buffer of another body of the same registry", async () => {
    const registry = new OCIRegistry(host);
    const first = await readKept(registry);
    const second = await readKept(registry);
    for (const piece of second.pieces) first.slabs.free(piece);
    expect(joined(second.pieces).equals(BLOB)).toBe(true);
    expect(joined(first.pieces).equals(BLOB)).toBe(true);
  });

  it("leaves intact a body another caller reads without freeing, while pulls of the same registry free and reuse slabs", async () => {
    const registry = new OCIRegistry(host);
    const body = await registry.getBlob("vm", DIGEST);
    const kept: Uint8Array[] = [];
    for await (const piece of body) kept.push(piece as Uint8Array);
    // Two pulls: the first gives its slabs back to the registry's pool, the second receives into them.
    const give = vi.spyOn(SlabPool.prototype, "give");
    try {
      expect((await readFreeing(registry)).equals(BLOB)).toBe(true);
      expect(give.mock.calls.length).toBeGreaterThanOrEqual(3); // 3 MiB and more: three slabs or more given back
      expect((await readFreeing(registry)).equals(BLOB)).toBe(true);
      expect(give.mock.calls.length).toBeGreaterThanOrEqual(6);
    } finally {
      give.mockRestore();
    }
    expect(kept.every((p) => p.byteLength > 0)).toBe(true);
    expect(joined(kept).equals(BLOB)).toBe(true);
  });

  it("frees nothing a downloader keeps when it hands the pull another stream of the same pieces", async () => {
    const registry = new OCIRegistry(host);
    const kept: Uint8Array[] = [];
    // Reads the registry's stream itself (passing the pull's options on), keeps every piece, and hands on a stream of its own.
    const keeping: Downloader = {
      getManifest: () => Promise.reject(new Error("unused")),
      getBlob: async (name, digest, options) => {
        for await (const piece of await registry.getBlob(name, digest, options)) kept.push(piece as Uint8Array);
        return directReadable(
          (async function* () {
            yield* kept;
          })(),
        );
      },
    };
    expect((await readFreeing(keeping)).equals(BLOB)).toBe(true);
    expect(kept.every((p) => p.byteLength > 0)).toBe(true);
    expect(joined(kept).equals(BLOB)).toBe(true);
  });
});

// Whether a blob's digest was checked is the call's own record, never shared state: a second,
// independent caller always hashes, whatever another call checked before.
import type * as NodeCrypto from "node:crypto";
import { createServer, type Server } from "node:http";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isCocoonError } from "../errors.js";
import { readVerifiedBlob } from "../snapshot/pull/blob-reader.js";
import { sha256Digest } from "./digest.js";
import { isRegistryError } from "./errors.js";
import { OCIRegistry } from "./oci-registry.js";
import type { Downloader } from "./registry.js";

/** How many hashes were started: each check of a blob's digest starts one. */
const hashes = vi.hoisted(() => ({ started: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof NodeCrypto>();
  const createHash: typeof crypto.createHash = (...args) => (hashes.started++, crypto.createHash(...args));
  return { ...crypto, createHash };
});

const X = Buffer.from("abcd");
const Y = Buffer.from("wxyz");
const DX = sha256Digest(X);
const DY = sha256Digest(Y);

/** A registry that serves X and Y and takes any upload without checking its digest (as a careless one would). */
let server: Server;
let registry: OCIRegistry;
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url?.split("?")[0] ?? "";
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("error", () => undefined); // an upload the client abandons
    req.on("end", () => {
      seen.push(`${req.method} ${path}${parts.length > 0 ? ` ${Buffer.concat(parts).toString()}` : ""}`);
      const blob = { [`/v2/vm/blobs/${DX}`]: X, [`/v2/vm/blobs/${DY}`]: Y }[path];
      if (req.method === "GET" && blob) return void res.writeHead(200, { "content-length": blob.length }).end(blob);
      if (req.method === "POST") return void res.writeHead(202, { location: "/v2/vm/blobs/uploads/1" }).end();
      if (req.method === "PUT") return void res.writeHead(201).end();
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  registry = new OCIRegistry(`127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => void server.close());
beforeEach(() => {
  seen.length = 0;
  hashes.started = 0;
});

const descX = { mediaType: "application/octet-stream", digest: DX, size: 4 };

describe("a pull's digest check belongs to its call", () => {
  it("a caller reading OCIRegistry's stream for its own digest gets the bytes, hashed once by the registry client", async () => {
    expect(Buffer.from(await readVerifiedBlob(registry, "vm", descX))).toEqual(X);
    expect(seen).toEqual([`GET /v2/vm/blobs/${DX}`]);
    expect(hashes.started).toBe(1);
  });

  it("hashes a stream OCIRegistry checked for another digest: a downloader handing it out for X is refused", async () => {
    const swapping: Downloader = {
      getManifest: () => Promise.reject(new Error("unused")),
      getBlob: (name, _digest, options) => registry.getBlob(name, DY, options),
    };
    const err = await readVerifiedBlob(swapping, "vm", descX).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_INTEGRITY")).toBe(true);
    expect((err as Error).message).toBe(`blob ${DX} digest mismatch: got ${DY}`);
    expect(seen).toEqual([`GET /v2/vm/blobs/${DY}`]);
    expect(hashes.started).toBe(2); // the registry client's, and the caller's own
  });

  it("hashes another stream than the one OCIRegistry checked in the same call", async () => {
    const substituting: Downloader = {
      getManifest: () => Promise.reject(new Error("unused")),
      getBlob: async (name, digest, options) => {
        (await registry.getBlob(name, digest, options)).destroy();
        return Readable.from([Y]);
      },
    };
    const err = await readVerifiedBlob(substituting, "vm", descX).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`blob ${DX} digest mismatch: got ${DY}`);
    expect(seen).toEqual([`GET /v2/vm/blobs/${DX}`]);
  });
});

describe("an upload's digest check belongs to its call", () => {
  it("a caller that hashed the body leaves the digest to the registry; a second caller with the same body hashes it", async () => {
    const bytes = Buffer.from(X);
    const body = {
      async *[Symbol.asyncIterator]() {
        yield bytes;
      },
    };
    bytes[0] = "z".charCodeAt(0); // changed after the first caller hashed it into DX
    await registry.putBlob("vm", DX, body, 4, { digestChecked: true });
    expect(hashes.started).toBe(0);
    expect(seen).toEqual(["POST /v2/vm/blobs/uploads/", "PUT /v2/vm/blobs/uploads/1 zbcd"]); // this registry took it unchecked

    seen.length = 0;
    const err = await registry.putBlob("vm", DX, body, 4).catch((e: unknown) => e);
    expect(hashes.started).toBe(1); // the client hashed the body this time
    expect(isRegistryError(err) && [err.code, err.message]).toEqual([
      "ERR_REGISTRY_DIGEST_MISMATCH",
      `blob ${DX} digest mismatch: got ${sha256Digest(bytes)}`,
    ]);
    expect(seen).toEqual(["POST /v2/vm/blobs/uploads/"]); // the PUT never completes: its one piece is held until checked
  });
});

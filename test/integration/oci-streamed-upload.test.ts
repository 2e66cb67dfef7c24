/**
 * `OCIRegistry.putBlobStreamed` (a chunked upload session whose digest is learnt on the way)
 * against a real CNCF distribution registry, with the requests counted on the wire by a proxy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OCIRegistry } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { chunked, readAll, rejectionOf, startTestRegistry, testBlob } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

const MIB = 1 << 20;
let registry: TestRegistry;
let proxy: RegistryProxy;
let oci: OCIRegistry;
/** Method, upload-free path and status; an upload URL's digest is kept, its session id dropped. */
const wire = (): string[] =>
  proxy.requests.map((r) => {
    const digest = new URL(r.path, "http://x").searchParams.get("digest");
    return `${r.method} ${r.path.replace(/uploads\/.*$/u, "uploads/")}${digest ? ` digest=${digest}` : ""} ${r.status}`;
  });

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startRegistryProxy(registry.host);
  oci = new OCIRegistry(proxy.host);
});
afterAll(async () => {
  await proxy.close();
  await registry.stop();
});
beforeEach(() => proxy.reset());

describe("OCIRegistry.putBlobStreamed on a real registry", () => {
  it("sends a PATCH per 16 MiB with Content-Range and closes with a PUT that carries the last piece", async () => {
    const blob = testBlob(40 * MIB + 5, 3);
    expect(await oci.putBlobStreamed("vm-s", chunked(blob.bytes, 1_000_003))).toEqual({ digest: blob.digest, size: 40 * MIB + 5 });
    expect(wire()).toEqual([
      "POST /v2/vm-s/blobs/uploads/ 202",
      "PATCH /v2/vm-s/blobs/uploads/ 202",
      "PATCH /v2/vm-s/blobs/uploads/ 202",
      `PUT /v2/vm-s/blobs/uploads/ digest=${blob.digest} 201`,
    ]);
    expect(proxy.uploadedBytes()).toBe(40 * MIB + 5);
    expect((await readAll(await oci.getBlob("vm-s", blob.digest))).equals(blob.bytes)).toBe(true);
  });

  it("a body of exactly two pieces closes with an empty PUT; an empty body is a POST and a PUT", async () => {
    const blob = testBlob(32 * MIB, 4);
    expect(await oci.putBlobStreamed("vm-s", chunked(blob.bytes))).toEqual({ digest: blob.digest, size: 32 * MIB });
    const empty = testBlob(0);
    expect(await oci.putBlobStreamed("vm-s", chunked(empty.bytes))).toEqual({ digest: empty.digest, size: 0 });
    expect(wire().map((line) => line.split(" ")[0])).toEqual(["POST", "PATCH", "PATCH", "PUT", "POST", "PUT"]);
    expect(await oci.hasBlob("vm-s", empty.digest)).toBe(true);
  });

  it("a failing body rejects with its own error and stores nothing", async () => {
    const blob = testBlob(20 * MIB, 5);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield blob.bytes.subarray(0, 17 * MIB);
      throw new Error("export stream broke");
    }
    const err = await rejectionOf(oci.putBlobStreamed("vm-s", failing()));
    expect(err.message).toBe("export stream broke");
    expect(wire()).toEqual(["POST /v2/vm-s/blobs/uploads/ 202", "PATCH /v2/vm-s/blobs/uploads/ 202"]);
    expect(await oci.hasBlob("vm-s", blob.digest)).toBe(false);
  });
});

describe("OCIRegistry.putBlobStreamed with the body's size on a real registry", () => {
  /** Method, status and body bytes of each request, as the proxy forwarded them. */
  const sent = (): string[] => proxy.requests.map((r) => `${r.method} ${r.status} ${r.bytes}`);

  it("streams each PATCH from the body; the last PATCH takes the remainder and the PUT is empty", async () => {
    const blob = testBlob(40 * MIB + 5, 6);
    expect(await oci.putBlobStreamed("vm-z", chunked(blob.bytes, 1_000_003), { size: 40 * MIB + 5 })).toEqual({
      digest: blob.digest,
      size: 40 * MIB + 5,
    });
    expect(sent()).toEqual(["POST 202 0", `PATCH 202 ${16 * MIB}`, `PATCH 202 ${24 * MIB + 5}`, "PUT 201 0"]);
    expect(wire()[3]).toBe(`PUT /v2/vm-z/blobs/uploads/ digest=${blob.digest} 201`);
    expect((await readAll(await oci.getBlob("vm-z", blob.digest))).equals(blob.bytes)).toBe(true);
  });

  it("a body below a piece is one PATCH and an empty PUT; an empty body a POST and a PUT", async () => {
    const blob = testBlob(5 * MIB + 1, 7);
    expect(await oci.putBlobStreamed("vm-z", chunked(blob.bytes), { size: 5 * MIB + 1 })).toEqual({
      digest: blob.digest,
      size: 5 * MIB + 1,
    });
    const empty = testBlob(0);
    expect(await oci.putBlobStreamed("vm-z", chunked(empty.bytes), { size: 0 })).toEqual({ digest: empty.digest, size: 0 });
    expect(sent()).toEqual(["POST 202 0", `PATCH 202 ${5 * MIB + 1}`, "PUT 201 0", "POST 202 0", "PUT 201 0"]);
  });

  it("a body shorter than its size fails with ERR_REGISTRY_SIZE_MISMATCH and stores nothing", async () => {
    const blob = testBlob(20 * MIB, 8);
    const err = await rejectionOf(oci.putBlobStreamed("vm-z", chunked(blob.bytes.subarray(0, 18 * MIB)), { size: 20 * MIB }));
    expect(err.code).toBe("ERR_REGISTRY_SIZE_MISMATCH");
    expect(err.message).toBe(`blob body shorter than size ${20 * MIB} (missing ${2 * MIB})`);
    expect(proxy.requests.map((r) => r.method)).toEqual(["POST"]);
    expect(await oci.hasBlob("vm-z", blob.digest)).toBe(false);
  });

  it("a body longer than its size fails with ERR_REGISTRY_SIZE_MISMATCH before the PUT", async () => {
    const blob = testBlob(17 * MIB, 9);
    const err = await rejectionOf(oci.putBlobStreamed("vm-z", chunked(blob.bytes), { size: 17 * MIB - 1 }));
    expect(err.code).toBe("ERR_REGISTRY_SIZE_MISMATCH");
    expect(err.message).toBe(`blob body longer than size ${17 * MIB - 1}`);
    expect(sent()).toEqual(["POST 202 0", `PATCH 202 ${17 * MIB - 1}`]);
  });

  it.each([-1, 1.5, Number.NaN])("size %s is refused with ERR_INVALID_ARGUMENT before any request", async (size) => {
    const err = await rejectionOf(oci.putBlobStreamed("vm-z", chunked(Buffer.from("x")), { size }));
    expect(err.code).toBe("ERR_INVALID_ARGUMENT");
    expect(err.message).toBe(`put blob vm-z: size ${size} is not a non-negative integer`);
    expect(proxy.requests).toEqual([]);
  });
});

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

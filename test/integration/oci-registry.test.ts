/**
 * Every `Registry` method of `OCIRegistry` against a real CNCF distribution registry, with the
 * requests counted on the wire by a proxy in front of it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OCIRegistry, isRegistryError, sha256Digest } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { chunked, manifestFor, OCI_MANIFEST, readAll, rejectionOf, startTestRegistry, testBlob } from "./registry-helpers.js";
import { startRegistryProxy, type RegistryProxy } from "./registry-proxy.js";

let registry: TestRegistry;
let proxy: RegistryProxy;
let oci: OCIRegistry;
const wire = (): string[] =>
  proxy.requests.map((r) => `${r.method} ${r.path.replace(/uploads\/[^?]+\?_state=[^&]+&/, "uploads/ID?")} ${r.status}`);

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startRegistryProxy(registry.host);
  oci = new OCIRegistry(`${proxy.host}/cocoon`);
});
afterAll(async () => {
  await proxy.close();
  await registry.stop();
});
beforeEach(() => proxy.reset());

describe("OCIRegistry on a real registry", () => {
  const config = testBlob(100, 1);
  const layer = testBlob(300_000, 2);
  const manifest = manifestFor(config, [layer]);
  const manifestDigest = sha256Digest(manifest);

  it("hasBlob is one HEAD; putBlob is a POST and one streamed PUT", async () => {
    expect(await oci.hasBlob("vm-1", layer.digest)).toBe(false);
    await oci.putBlob("vm-1", layer.digest, chunked(layer.bytes, 7_777), layer.bytes.length);
    await oci.putBlob("vm-1", config.digest, chunked(config.bytes), config.bytes.length);
    expect(await oci.hasBlob("vm-1", layer.digest)).toBe(true);
    expect(wire()).toEqual([
      `HEAD /v2/cocoon/vm-1/blobs/${layer.digest} 404`,
      "POST /v2/cocoon/vm-1/blobs/uploads/ 202",
      `PUT /v2/cocoon/vm-1/blobs/uploads/ID?digest=${encodeURIComponent(layer.digest)} 201`,
      "POST /v2/cocoon/vm-1/blobs/uploads/ 202",
      `PUT /v2/cocoon/vm-1/blobs/uploads/ID?digest=${encodeURIComponent(config.digest)} 201`,
      `HEAD /v2/cocoon/vm-1/blobs/${layer.digest} 200`,
    ]);
  });

  it("putManifest stores the exact bytes; hasManifest is one HEAD; getManifest returns them by tag and by digest", async () => {
    await oci.putManifest("vm-1", "hibernate", manifest, OCI_MANIFEST);
    expect(await oci.hasManifest("vm-1", "hibernate")).toBe(true);
    const byTag = await oci.getManifest("vm-1", "hibernate");
    const byDigest = await oci.getManifest("vm-1", manifestDigest);
    expect([Buffer.from(byTag.data).equals(manifest), byTag.contentType, Buffer.from(byDigest.data).equals(manifest)]).toEqual([
      true,
      OCI_MANIFEST,
      true,
    ]);
    expect(wire()).toEqual([
      "PUT /v2/cocoon/vm-1/manifests/hibernate 201",
      "HEAD /v2/cocoon/vm-1/manifests/hibernate 200",
      "GET /v2/cocoon/vm-1/manifests/hibernate 200",
      `GET /v2/cocoon/vm-1/manifests/${manifestDigest} 200`,
    ]);
  });

  it("getBlob streams the bytes back, verified, with one GET", async () => {
    expect((await readAll(await oci.getBlob("vm-1", layer.digest))).equals(layer.bytes)).toBe(true);
    expect(wire()).toEqual([`GET /v2/cocoon/vm-1/blobs/${layer.digest} 200`]);
  });

  it("deleteManifest deletes a tag with one DELETE by tag (distribution untags; the digest stays)", async () => {
    await oci.deleteManifest("vm-1", "hibernate");
    expect(await oci.hasManifest("vm-1", "hibernate")).toBe(false);
    expect(await oci.hasManifest("vm-1", manifestDigest)).toBe(true);
    expect(wire()).toEqual([
      "DELETE /v2/cocoon/vm-1/manifests/hibernate 202",
      "HEAD /v2/cocoon/vm-1/manifests/hibernate 404",
      `HEAD /v2/cocoon/vm-1/manifests/${manifestDigest} 200`,
    ]);
  });

  it("deleteManifest of an absent tag counts as deleted (404, no error)", async () => {
    await oci.deleteManifest("vm-1", "hibernate");
    await oci.deleteManifest("never-pushed", "latest");
    expect(wire()).toEqual(["DELETE /v2/cocoon/vm-1/manifests/hibernate 404", "DELETE /v2/cocoon/never-pushed/manifests/latest 404"]);
  });

  it("deleteManifest falls back to the digest on a registry that refuses tag deletes", async () => {
    await oci.putManifest("vm-1", "latest", manifest, OCI_MANIFEST);
    proxy.reset();
    proxy.fault((method, path) =>
      method === "DELETE" && path.endsWith("/manifests/latest")
        ? { kind: "status", status: 405, body: '{"errors":[{"code":"UNSUPPORTED","message":"The operation is unsupported."}]}' }
        : undefined,
    );
    await oci.deleteManifest("vm-1", "latest");
    proxy.fault(undefined);
    expect(await oci.hasManifest("vm-1", "latest")).toBe(false);
    expect(wire()).toEqual([
      "DELETE /v2/cocoon/vm-1/manifests/latest 405",
      "HEAD /v2/cocoon/vm-1/manifests/latest 200",
      `DELETE /v2/cocoon/vm-1/manifests/${manifestDigest} 202`,
      "HEAD /v2/cocoon/vm-1/manifests/latest 404",
    ]);
  });

  it("an absent manifest or blob is ERR_REGISTRY_NOT_FOUND from the get calls, false from the has calls", async () => {
    const absent = testBlob(10, 9).digest;
    const noTag = await rejectionOf(oci.getManifest("vm-1", "nope"));
    const noBlob = await rejectionOf(oci.getBlob("vm-1", absent));
    expect([isRegistryError(noTag, "ERR_REGISTRY_NOT_FOUND"), noTag.message, noTag.status]).toEqual([
      true,
      "get manifest vm-1:nope: MANIFEST_UNKNOWN: manifest unknown",
      404,
    ]);
    expect([isRegistryError(noBlob, "ERR_REGISTRY_NOT_FOUND"), noBlob.message]).toEqual([
      true,
      `get blob vm-1@${absent}: BLOB_UNKNOWN: blob unknown to registry`,
    ]);
    expect([await oci.hasManifest("vm-1", "nope"), await oci.hasBlob("vm-1", absent)]).toEqual([false, false]);
  });

  it("a name go-containerregistry cannot parse fails before any request, with Go's message", async () => {
    const err = await rejectionOf(oci.hasManifest("VM-Upper", "hibernate"));
    expect([err.code, err.message]).toEqual([
      "ERR_INVALID_REFERENCE",
      `parse ref VM-Upper:hibernate: could not parse reference: ${proxy.host}/cocoon/VM-Upper:hibernate`,
    ]);
    expect(wire()).toEqual([]);
  });

  it("putBlob refuses a body whose length or digest is wrong, and the registry keeps nothing", async () => {
    const blob = testBlob(1000, 5);
    const short = await rejectionOf(oci.putBlob("vm-3", blob.digest, chunked(blob.bytes.subarray(0, 900)), 1000));
    const wrong = await rejectionOf(oci.putBlob("vm-3", blob.digest, chunked(testBlob(1000, 6).bytes), 1000));
    expect([short.code, wrong.code]).toEqual(["ERR_REGISTRY_SIZE_MISMATCH", "ERR_REGISTRY_DIGEST_MISMATCH"]);
    expect(await oci.hasBlob("vm-3", blob.digest)).toBe(false);
  });
});

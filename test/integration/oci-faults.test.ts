/**
 * The faults of a real registry, each a typed error: a stopped registry, a wrong or truncated
 * blob, a server slower than the timeout, throttling, server errors, and the caller's abort.
 * Faults are injected by a proxy in front of the real registry; requests are counted on the wire.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hasHibernateSnapshot, isRegistryError, OCIRegistry, sha256Digest } from "../../src/oci/index.js";
import type { TestRegistry } from "../../src/testing/index.js";
import { chunked, manifestFor, OCI_MANIFEST, readAll, rejectionOf, startTestRegistry, testBlob } from "./registry-helpers.js";
import { startRegistryProxy, type Fault, type RegistryProxy } from "./registry-proxy.js";

let registry: TestRegistry;
let proxy: RegistryProxy;
const blob = testBlob(200_000, 4);
const client = (timeoutMs = 2000): OCIRegistry => new OCIRegistry(proxy.host, { timeoutMs });
const on = (method: string, part: string, fault: Fault): void =>
  proxy.fault((m, p) => (m === method && p.includes(part) ? fault : undefined));

beforeAll(async () => {
  registry = await startTestRegistry();
  proxy = await startRegistryProxy(registry.host);
  const oci = client();
  await oci.putBlob("vm-f", blob.digest, chunked(blob.bytes), blob.bytes.length);
  await oci.putManifest("vm-f", "hibernate", manifestFor(blob), OCI_MANIFEST);
});
afterAll(async () => {
  await proxy.close();
  await registry.stop();
});
beforeEach(() => proxy.reset());

describe("OCIRegistry faults on a real registry", () => {
  it("a blob whose bytes do not match its digest errors the stream with ERR_REGISTRY_DIGEST_MISMATCH", async () => {
    on("GET", "/blobs/", { kind: "corrupt" });
    const err = await rejectionOf(readAll(await client().getBlob("vm-f", blob.digest)));
    expect([
      isRegistryError(err, "ERR_REGISTRY_DIGEST_MISMATCH"),
      err.message.startsWith(`blob ${blob.digest} digest mismatch: got sha256:`),
    ]).toEqual([true, true]);
  });

  it("a manifest fetched by digest whose bytes differ is ERR_REGISTRY_DIGEST_MISMATCH", async () => {
    const manifestDigest = sha256Digest(manifestFor(blob));
    on("GET", "/manifests/sha256:", { kind: "corrupt" });
    const err = await rejectionOf(client().getManifest("vm-f", manifestDigest));
    expect([err.code, err.message.startsWith(`get manifest vm-f:${manifestDigest}: manifest digest mismatch: got sha256:`)]).toEqual([
      "ERR_REGISTRY_DIGEST_MISMATCH",
      true,
    ]);
  });

  it("a body cut off mid-way errors the stream with ERR_REGISTRY_TRANSPORT", async () => {
    on("GET", "/blobs/", { kind: "truncate", bytes: 50_000 });
    const err = await rejectionOf(readAll(await client().getBlob("vm-f", blob.digest)));
    expect(err.code).toBe("ERR_REGISTRY_TRANSPORT");
    expect(err.message).toMatch(new RegExp(`^get blob vm-f@${blob.digest}: `));
  });

  it("headers later than the timeout are ERR_REGISTRY_TIMEOUT after one request (a timeout is not retried)", async () => {
    on("HEAD", "/manifests/hibernate", { kind: "delay-headers", ms: 1500 });
    const started = Date.now();
    const err = await rejectionOf(client(300).hasManifest("vm-f", "hibernate"));
    expect([err.code, err.message]).toEqual(["ERR_REGISTRY_TIMEOUT", "head manifest vm-f:hibernate: no answer within 300 ms"]);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(proxy.requests.length).toBeLessThanOrEqual(1); // the proxy records it only if the registry answered in time
  });

  it("a body that stalls longer than the timeout errors the stream with ERR_REGISTRY_TIMEOUT", async () => {
    on("GET", "/blobs/", { kind: "stall-body", afterBytes: 10_000 });
    const err = await rejectionOf(readAll(await client(300).getBlob("vm-f", blob.digest)));
    expect([err.code, err.message]).toEqual(["ERR_REGISTRY_TIMEOUT", `get blob vm-f@${blob.digest}: no data for 300 ms`]);
  });

  it("429 with Retry-After is retried for a probe: 2 requests, then the answer", async () => {
    let throttled = 0;
    proxy.fault((m) => (m === "HEAD" && throttled++ === 0 ? { kind: "status", status: 429, headers: { "retry-after": "0" } } : undefined));
    expect(await client().hasManifest("vm-f", "hibernate")).toBe(true);
    expect(proxy.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it("503 without Retry-After on a manifest PUT is not retried: 1 request, ERR_REGISTRY_STATUS", async () => {
    on("PUT", "/manifests/", { kind: "status", status: 503 });
    const err = await rejectionOf(client().putManifest("vm-f", "other", manifestFor(blob), OCI_MANIFEST));
    expect([err.code, err.status, proxy.requests.length]).toEqual(["ERR_REGISTRY_STATUS", 503, 1]);
  });

  it("a 500 on a probe is an error at once (1 request; only 429/503 are retried), never 'absent'", async () => {
    on("HEAD", "/manifests/", { kind: "status", status: 500 });
    const err = await rejectionOf(hasHibernateSnapshot(client(), "vm-f"));
    expect([err.code, err.status, proxy.requests.length]).toEqual(["ERR_REGISTRY_STATUS", 500, 1]);
  });

  it("a 400 on a tag delete that is not UNSUPPORTED is an error, with no fallback (1 request)", async () => {
    on("DELETE", "/manifests/", {
      kind: "status",
      status: 400,
      body: '{"errors":[{"code":"NAME_INVALID","message":"invalid repository name"}]}',
    });
    const err = await rejectionOf(client().deleteManifest("vm-f", "hibernate"));
    expect([err.code, err.status, err.message, proxy.requests.length]).toEqual([
      "ERR_REGISTRY_STATUS",
      400,
      "delete manifest hibernate: NAME_INVALID: invalid repository name",
      1,
    ]);
  });

  it("an abort while a blob streams errors the stream with the signal's reason", async () => {
    on("GET", "/blobs/", { kind: "stall-body", afterBytes: 10_000 });
    const controller = new AbortController();
    const reason = new Error("pull cancelled");
    const stream = await client(10_000).getBlob("vm-f", blob.digest, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(readAll(stream)).rejects.toBe(reason);
    expect([stream.destroyed, Date.now() - started < 2000]).toEqual([true, true]);
  });

  it("an abort rejects with the signal's reason, at once", async () => {
    on("HEAD", "/manifests/", { kind: "delay-headers", ms: 3000 });
    const controller = new AbortController();
    const reason = new Error("operator shutting down");
    setTimeout(() => controller.abort(reason), 100);
    const started = Date.now();
    await expect(client(10_000).hasManifest("vm-f", "hibernate", { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("a stopped registry", () => {
  it("fails the probe closed with ERR_REGISTRY_TRANSPORT after 3 attempts, never 'absent'", async () => {
    const stopped = await startTestRegistry();
    await stopped.stop();
    const oci = new OCIRegistry(stopped.host, { timeoutMs: 1000 });
    const err = await rejectionOf(hasHibernateSnapshot(oci, "vm-f"));
    expect([err.code, oci.requestCounts.registry]).toEqual(["ERR_REGISTRY_TRANSPORT", 3]);
    expect(err.message).toBe(`probe hibernate snapshot vm-f: head manifest vm-f:hibernate: connect ECONNREFUSED ${stopped.host}`);
  });
});

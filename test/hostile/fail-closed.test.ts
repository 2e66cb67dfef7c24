import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteSetSnapshots, hasHibernateSnapshot, isRegistryError, RegistryError } from "../../src/oci/index.js";
import { hostileRegistry } from "./support/hostile-client.js";
import { json } from "./support/peer.js";
import { bearerChallenge, MANIFEST_DIGEST, serveManifest, startWorld, type HostileWorld } from "./support/world.js";

// Rule 1: "present" only on a verifiable answer, "absent" only from the registry's own endpoint.
let world: HostileWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const OTHER_DIGEST = `sha256:${"ab".repeat(32)}`;

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRegistryError(err)) throw new Error(`expected a RegistryError, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

describe("a manifest probe answers present only on a verifiable 200", () => {
  it("refuses a 200 without a valid Docker-Content-Digest, and the probe of the snapshot says why", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((_req, res) => serveManifest(res, { "docker-content-digest": undefined }));
    expect(await rejection(registry.hasManifest("vm", "hibernate"))).toEqual({
      code: "ERR_REGISTRY_STATUS",
      message: 'head manifest vm:hibernate: the registry answered 200 without a valid Docker-Content-Digest: cannot parse hash: ""',
    });
    world.registry.handle((_req, res) => serveManifest(res, { "docker-content-digest": "sha256:abc" }));
    expect(await rejection(hasHibernateSnapshot(registry, "vm"))).toEqual({
      code: "ERR_REGISTRY_STATUS",
      message:
        "probe hibernate snapshot vm: head manifest vm:hibernate: the registry answered 200 without a valid Docker-Content-Digest: wrong number of hex digits for sha256: abc",
    });
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/vm/manifests/hibernate"]);
    // The same registry with a digest header is believed.
    world.registry.handle((_req, res) => serveManifest(res));
    expect(await hasHibernateSnapshot(registry, "vm")).toBe(true);
  });

  it("refuses a 200 whose Content-Type is not a manifest media type (a captive portal's HTML page)", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((_req, res) => serveManifest(res, { "content-type": "text/html; charset=utf-8" }));
    expect(await rejection(registry.hasManifest("vm", "hibernate"))).toEqual({
      code: "ERR_REGISTRY_STATUS",
      message: 'head manifest vm:hibernate: the registry answered 200 with Content-Type "text/html", not a manifest',
    });
    world.registry.handle((_req, res) => serveManifest(res, { "content-type": "application/vnd.docker.distribution.manifest.v2+json" }));
    expect(await registry.hasManifest("vm", "hibernate")).toBe(true);
  });

  it("refuses a 200 for a digest reference that names another digest", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((_req, res) => serveManifest(res, { "docker-content-digest": OTHER_DIGEST }));
    expect(await rejection(registry.hasManifest("vm", MANIFEST_DIGEST))).toEqual({
      code: "ERR_REGISTRY_DIGEST_MISMATCH",
      message: `head manifest vm:${MANIFEST_DIGEST}: the registry answered for ${OTHER_DIGEST}`,
    });
  });
});

describe("absent only from the registry's own manifest or blob endpoint", () => {
  it("a token endpoint's 404 is unauthorized, never absent", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((req, res) => {
      if (req.path.startsWith("/token")) json(res, 404, { errors: [{ code: "NOT_FOUND", message: "no such service" }] });
      else bearerChallenge(res, `${world.registry.origin}/token`);
    });
    const err = await rejection(hasHibernateSnapshot(registry, "vm"));
    expect(err).toEqual({
      code: "ERR_REGISTRY_UNAUTHORIZED",
      message: "probe hibernate snapshot vm: get token for repository:vm:pull: NOT_FOUND: no such service",
    });
    expect(world.registry.seen.map((r) => `${r.method} ${r.path.split("?")[0] ?? ""}`)).toEqual([
      "HEAD /v2/vm/manifests/hibernate",
      "GET /token",
    ]);
  });

  it("a credential source's not-found is unauthorized, never absent", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, {
      credentials: () => Promise.reject(new RegistryError("ERR_REGISTRY_NOT_FOUND", "helper: no such server")),
    });
    world.registry.handle((_req, res) => bearerChallenge(res, `${world.registry.origin}/token`));
    expect(await rejection(hasHibernateSnapshot(registry, "vm"))).toEqual({
      code: "ERR_REGISTRY_UNAUTHORIZED",
      message: `probe hibernate snapshot vm: credentials for ${world.registry.host}: helper: no such server`,
    });
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/vm/manifests/hibernate"]);
  });

  it("a redirect target's 404 is a transport error, for a manifest probe and for a blob", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((req, res) => {
      res.writeHead(307, { location: `${world.cdn.origin}/cdn${req.path}` });
      res.end();
    });
    world.cdn.handle((_req, res) => json(res, 404, { errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown" }] }));
    expect(await rejection(hasHibernateSnapshot(registry, "vm"))).toEqual({
      code: "ERR_REGISTRY_TRANSPORT",
      message: `probe hibernate snapshot vm: head manifest vm:hibernate: the redirect target ${world.cdn.host} answered 404; only the registry's own answer can say absent`,
    });
    expect(await rejection(registry.getBlob("vm", OTHER_DIGEST))).toEqual({
      code: "ERR_REGISTRY_TRANSPORT",
      message: `get blob vm@${OTHER_DIGEST}: the redirect target ${world.cdn.host} answered 404; only the registry's own answer can say absent`,
    });
    expect(world.cdn.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "HEAD /cdn/v2/vm/manifests/hibernate",
      `GET /cdn/v2/vm/blobs/${OTHER_DIGEST}`,
    ]);
  });
});

describe("a digest from a response header is checked before it goes into a URL", () => {
  it("the tag-delete fallback refuses a Docker-Content-Digest that is a path", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    world.registry.handle((req, res) => {
      if (req.method === "DELETE") json(res, 405, { errors: [{ code: "UNSUPPORTED", message: "tag delete" }] });
      else serveManifest(res, { "docker-content-digest": "sha256:../../other/manifests/latest" });
    });
    expect(await rejection(registry.deleteManifest("vm", "hibernate"))).toEqual({
      code: "ERR_REGISTRY_STATUS",
      message: `resolve ${world.registry.host}/vm:hibernate: the registry answered 200 without a valid Docker-Content-Digest: found non-hex character in hash: .`,
    });
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "DELETE /v2/vm/manifests/hibernate",
      "HEAD /v2/vm/manifests/hibernate",
    ]);
  });
});

describe("deleteSetSnapshots keeps what it reports as kept", () => {
  it("never deletes by digest a manifest that the kept :latest still names", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const digests: Record<string, string> = { hibernate: MANIFEST_DIGEST, latest: MANIFEST_DIGEST };
    world.registry.handle((req, res) => {
      const tag = req.path.split("/").pop() ?? "";
      if (req.method === "DELETE" && !tag.startsWith("sha256:"))
        json(res, 405, { errors: [{ code: "UNSUPPORTED", message: "tag delete" }] });
      else if (req.method === "DELETE") {
        for (const [t, d] of Object.entries(digests)) if (d === tag) delete digests[t];
        res.writeHead(202).end();
      } else if (digests[tag] !== undefined) serveManifest(res, { "docker-content-digest": digests[tag] });
      else json(res, 404, { errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown" }] });
    });
    const vms = [{ vmName: "vm", role: "main" }];
    expect(await rejection(deleteSetSnapshots(registry, vms, "always"))).toEqual({
      code: "ERR_REGISTRY_STATUS",
      message: `delete manifest hibernate: the registry deletes only by digest, and the kept tag latest names the same manifest ${MANIFEST_DIGEST}; nothing deleted`,
    });
    expect(digests).toEqual({ hibernate: MANIFEST_DIGEST, latest: MANIFEST_DIGEST });
    expect(world.registry.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      "DELETE /v2/vm/manifests/hibernate",
      "HEAD /v2/vm/manifests/hibernate",
      "HEAD /v2/vm/manifests/latest",
    ]);
    // When :latest names another manifest, :hibernate goes by digest and :latest stays.
    digests.hibernate = OTHER_DIGEST;
    expect(await deleteSetSnapshots(registry, vms, "always")).toEqual({ deleted: ["vm:hibernate"], kept: ["vm:latest"] });
    expect(digests).toEqual({ latest: MANIFEST_DIGEST });
  });
});

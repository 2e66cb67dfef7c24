import { createHash } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRegistryError, staticCredentials } from "../../src/oci/index.js";
import { hostileRegistry } from "./support/hostile-client.js";
import { json } from "./support/peer.js";
import type { SeenRequest } from "./support/peer.js";
import { serveManifest, startWorld, type HostileWorld } from "./support/world.js";

// Rule 2: credentials and blobs go only where they belong.
let world: HostileWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const BLOB = Buffer.from("the bytes of a snapshot layer");
const BLOB_DIGEST = `sha256:${createHash("sha256").update(BLOB).digest("hex")}`;
const PASSWORD = "hunter2-registry-password";
const BASIC = `Basic ${Buffer.from(`bot:${PASSWORD}`).toString("base64")}`;
const REFRESH = "refresh-token-0123456789";

const basicOnly = () => staticCredentials({ [world.registry.host]: { username: "bot", password: PASSWORD } });
const bytes = async function* (): AsyncGenerator<Uint8Array> {
  yield BLOB;
};
const auths = (seen: readonly SeenRequest[]): (string | undefined)[] => seen.map((r) => r.headers.authorization as string | undefined);

/** A registry that wants Basic credentials, then lets `next` answer. */
function basicRegistry(next: (req: SeenRequest, res: Parameters<Parameters<HostileWorld["registry"]["handle"]>[0]>[1]) => void): void {
  world.registry.handle((req, res) => {
    if (req.headers.authorization !== BASIC) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="registry"' }).end();
      return;
    }
    next(req, res);
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code: string }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRegistryError(err)) throw new Error(`expected a RegistryError, got ${String(err)}`);
  return err;
}

describe("Authorization goes only to the registry's own host", () => {
  it("not to a redirect target on another host, nor to an upload Location on another host", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, { credentials: basicOnly() });
    basicRegistry((req, res) => {
      if (req.method === "GET") res.writeHead(307, { location: `${world.cdn.origin}/blob` }).end();
      else if (req.method === "POST") res.writeHead(202, { location: `${world.evil.origin}/upload/1` }).end();
      else res.writeHead(404).end();
    });
    world.cdn.handle((_req, res) => {
      res.writeHead(200, { "content-length": String(BLOB.length) });
      res.end(BLOB);
    });
    world.evil.handle((_req, res) => void res.writeHead(201).end());
    const stream = await registry.getBlob("vm", BLOB_DIGEST);
    expect(Buffer.concat(await stream.toArray())).toEqual(BLOB);
    await registry.putBlob("vm", BLOB_DIGEST, bytes(), BLOB.length);
    expect(auths(world.cdn.seen)).toEqual([undefined]);
    expect(world.evil.seen.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["PUT", `/upload/1?digest=${encodeURIComponent(BLOB_DIGEST)}`, undefined],
    ]);
    expect(auths(world.registry.seen)).toEqual([undefined, BASIC, BASIC]);
  });
});

describe("nothing over plain HTTP to a host that is neither loopback nor insecure", () => {
  it("refuses an upload Location and a redirect to plain HTTP, and sends nothing there", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, { credentials: basicOnly() });
    basicRegistry((req, res) => {
      if (req.method === "GET") res.writeHead(302, { location: `${world.plain.origin}/blob` }).end();
      else res.writeHead(202, { location: `${world.plain.origin}/upload/1` }).end();
    });
    world.plain.handle((_req, res) => void res.writeHead(201).end());
    const put = await rejection(registry.putBlob("vm", BLOB_DIGEST, bytes(), BLOB.length));
    expect([put.code, put.message]).toEqual([
      "ERR_REGISTRY_TRANSPORT",
      `put blob vm@${BLOB_DIGEST}: refusing plain HTTP to ${world.plain.host} (not loopback, not in insecure)`,
    ]);
    const get = await rejection(registry.getBlob("vm", BLOB_DIGEST));
    expect([get.code, get.message]).toEqual([
      "ERR_REGISTRY_TRANSPORT",
      `get blob vm@${BLOB_DIGEST}: refusing a redirect from HTTPS to plain HTTP (${world.plain.host})`,
    ]);
    expect(world.plain.seen).toEqual([]);
    // Listed as insecure, the same host is spoken to over plain HTTP (as a registry of its own).
    const insecure = hostileRegistry(world.plain.host, world.fetch, { insecure: [world.plain.host] });
    world.plain.handle((_req, res) => serveManifest(res));
    expect(await insecure.hasManifest("vm", "hibernate")).toBe(true);
    expect(world.plain.seen.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /v2/vm/manifests/hibernate"]);
  });
});

describe("a token request never replays credentials across a redirect", () => {
  it("a refresh-token POST is not redirected, a Basic GET is redirected without its credentials", async () => {
    const realm = `${world.registry.origin}/token`;
    world.registry.handle((req, res) => {
      if (req.path.startsWith("/token")) res.writeHead(307, { location: `${world.evil.origin}/steal` }).end();
      else if (req.path.startsWith("/moved")) json(res, 200, { token: "a-token-for-anyone" });
      else if (req.headers.authorization === "Bearer a-token-for-anyone") serveManifest(res);
      else res.writeHead(401, { "www-authenticate": `Bearer realm="${realm}",service="registry.test"` }).end();
    });
    world.evil.handle((_req, res) => json(res, 200, { token: "stolen" }));
    const refresh = hostileRegistry(world.registry.host, world.fetch, {
      credentials: staticCredentials({ [world.registry.host]: { identityToken: REFRESH } }),
    });
    const err = await rejection(refresh.hasManifest("vm", "hibernate"));
    expect([err.code, err.message]).toEqual([
      "ERR_REGISTRY_UNAUTHORIZED",
      "get token for repository:vm:pull: unexpected status code 307 Temporary Redirect",
    ]);
    expect(world.evil.seen).toEqual([]);

    // A GET realm that moves within its own host: the next hop gets no credentials.
    world.registry.handle((req, res) => {
      if (req.path.startsWith("/token")) res.writeHead(302, { location: `/moved${req.path.slice("/token".length)}` }).end();
      else if (req.path.startsWith("/moved")) json(res, 200, { token: "a-token-for-anyone" });
      else if (req.headers.authorization === "Bearer a-token-for-anyone") serveManifest(res);
      else res.writeHead(401, { "www-authenticate": `Bearer realm="${realm}",service="registry.test"` }).end();
    });
    const basic = hostileRegistry(world.registry.host, world.fetch, { credentials: basicOnly() });
    expect(await basic.hasManifest("vm", "hibernate")).toBe(true);
    const tokenHops = world.registry.seen.filter((r) => !r.path.startsWith("/v2/"));
    expect(tokenHops.map((r) => [r.path.split("?")[0], r.headers.authorization])).toEqual([
      ["/token", BASIC],
      ["/moved", undefined],
    ]);
  });
  it("a redirected token request goes only where a realm could: not to a private address", async () => {
    const port = world.evil.host.split(":")[1];
    world.cdn.handle((_req, res) => {
      res.writeHead(302, { location: `https://127.0.0.1:${port}/metadata` }).end();
    });
    world.evil.handle((_req, res) => json(res, 200, { token: "from-the-inside" }));
    world.registry.handle((_req, res) => {
      res.writeHead(401, { "www-authenticate": `Bearer realm="${world.cdn.origin}/token",service="registry.test"` }).end();
    });
    const basic = hostileRegistry(world.registry.host, world.fetch, { credentials: basicOnly() });
    const err = await rejection(basic.hasManifest("vm", "hibernate"));
    expect([err.code, err.message]).toEqual([
      "ERR_REGISTRY_UNAUTHORIZED",
      `get token for repository:vm:pull (redirected): refusing the token realm host 127.0.0.1:${port}: ` +
        `a loopback, private or link-local address that is not the registry ${world.registry.host}`,
    ]);
    expect(world.cdn.seen.map((r) => r.path.split("?")[0])).toEqual(["/token"]);
    expect(world.evil.seen).toEqual([]);
  });
});

describe("no secret in any error", () => {
  it("a token that is not a valid header value is refused without showing it", async () => {
    const realm = `${world.registry.origin}/token`;
    const token = "bearer-secret-\r\nx-injected: 1";
    world.registry.handle((req, res) => {
      if (req.path.startsWith("/token")) json(res, 200, { token });
      else res.writeHead(401, { "www-authenticate": `Bearer realm="${realm}",service="registry.test"` }).end();
    });
    const err = await rejection(hostileRegistry(world.registry.host, world.fetch).hasManifest("vm", "hibernate"));
    expect([err.code, err.message]).toEqual([
      "ERR_REGISTRY_UNAUTHORIZED",
      "get token for repository:vm:pull: the token endpoint sent a token that is not a valid header value",
    ]);
    expect(inspect(err, { depth: 10 })).not.toContain("bearer-secret");
    expect(world.registry.seen.map((r) => r.path.split("?")[0])).toEqual(["/v2/vm/manifests/hibernate", "/token"]);
  });

  it("a token endpoint and a registry that echo the credentials they got", async () => {
    const realm = `${world.registry.origin}/token`;
    world.registry.handle((req, res) => {
      const echo = `${String(req.headers.authorization)} ${req.body.toString()}`;
      if (req.path.startsWith("/token") && req.method === "GET") json(res, 200, { token: "bearer-secret-abcdef" });
      else if (req.path.startsWith("/token")) json(res, 400, { errors: [{ code: "DENIED", message: `bad grant: ${echo}` }] });
      else if (req.headers.authorization === undefined)
        res.writeHead(401, { "www-authenticate": `Bearer realm="${realm}",service="registry.test"` }).end();
      else json(res, 500, { errors: [{ code: "UNKNOWN", message: `broken for ${echo} (${PASSWORD}, ${encodeURIComponent(PASSWORD)})` }] });
    });
    const refresh = hostileRegistry(world.registry.host, world.fetch, {
      credentials: staticCredentials({ [world.registry.host]: { identityToken: REFRESH } }),
    });
    const basic = hostileRegistry(world.registry.host, world.fetch, { credentials: basicOnly() });
    const errors = [await rejection(refresh.hasManifest("vm", "hibernate")), await rejection(basic.getManifest("vm", "hibernate"))];
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      [
        "ERR_REGISTRY_UNAUTHORIZED",
        "get token for repository:vm:pull: DENIED: bad grant: undefined service=registry.test&scope=repository%3Avm%3Apull&grant_type=refresh_token&refresh_token=[REDACTED]&client_id=cocoon-common",
      ],
      ["ERR_REGISTRY_STATUS", `get manifest vm:hibernate: UNKNOWN: broken for Bearer [REDACTED]  ([REDACTED], [REDACTED])`],
    ]);
    for (const err of errors) {
      const views = [err.message, String(err), JSON.stringify(err), inspect(err, { depth: 10 })].join("\n");
      for (const secret of [PASSWORD, REFRESH, "bearer-secret-abcdef", BASIC.slice(6)]) expect(views).not.toContain(secret);
    }
  });
});

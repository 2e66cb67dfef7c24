import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRegistryError, staticCredentials, type CredentialSource } from "../../src/oci/index.js";
import { hostileRegistry } from "./support/hostile-client.js";
import { json } from "./support/peer.js";
import { MANIFEST_DIGEST, OCI_MANIFEST, startWorld, type HostileWorld } from "./support/world.js";

// Rule 3: every call ends, and every read is bounded.
let world: HostileWorld;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const TIMEOUT_MS = 300;
const DEADLINE_MS = 800;
const options = { timeoutMs: TIMEOUT_MS, deadlineMs: DEADLINE_MS };
const realm = (): string => `${world.registry.origin}/token`;

/** Sends headers, then one byte every 50 ms for ever: never a stall, never an end. */
function drip(res: ServerResponse, status: number, first: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.write(first);
  const timer = setInterval(() => res.write(" "), 50);
  res.on("close", () => clearInterval(timer));
}

/** A registry that asks for a bearer token, the token endpoint answered by `token`. */
function bearerRegistry(token: (res: ServerResponse) => void): void {
  world.registry.handle((req, res) => {
    if (req.path.startsWith("/token")) token(res);
    else res.writeHead(401, { "www-authenticate": `Bearer realm="${realm()}",service="registry.test"` }).end();
  });
}

async function timed(promise: Promise<unknown>): Promise<{ code: string; message: string; ms: number }> {
  const start = performance.now();
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRegistryError(err)) throw new Error(`expected a RegistryError, got ${String(err)}`);
  return { code: err.code, message: err.message, ms: performance.now() - start };
}

describe("one overall deadline per call", () => {
  it("bounds a token endpoint that never answers, and one whose body never ends", { timeout: 5_000 }, async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, options);
    bearerRegistry(() => undefined); // headers never come
    const silent = await timed(registry.hasManifest("vm", "hibernate"));
    expect([silent.code, silent.message]).toEqual([
      "ERR_REGISTRY_TIMEOUT",
      `get token for repository:vm:pull: no answer within ${TIMEOUT_MS} ms`,
    ]);
    expect(silent.ms).toBeLessThan(DEADLINE_MS);
    bearerRegistry((res) => drip(res, 200, '{"token":"t"'));
    const endless = await timed(registry.hasManifest("vm", "hibernate"));
    expect([endless.code, endless.message]).toEqual([
      "ERR_REGISTRY_TIMEOUT",
      `head manifest vm:hibernate: not done within the call's ${DEADLINE_MS} ms deadline`,
    ]);
    expect(endless.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(endless.ms).toBeLessThan(DEADLINE_MS + 1_000);
  });

  it("bounds a credential source that ignores its signal, and hands it the deadline's signal", { timeout: 5_000 }, async () => {
    const signals: AbortSignal[] = [];
    const stuck: CredentialSource = (_registry, signal) => {
      if (signal !== undefined) signals.push(signal);
      return new Promise(() => undefined);
    };
    const registry = hostileRegistry(world.registry.host, world.fetch, { ...options, credentials: stuck });
    bearerRegistry((res) => json(res, 200, { token: "t" }));
    const err = await timed(registry.hasManifest("vm", "hibernate"));
    expect([err.code, err.message]).toEqual([
      "ERR_REGISTRY_TIMEOUT",
      `head manifest vm:hibernate: not done within the call's ${DEADLINE_MS} ms deadline`,
    ]);
    expect(err.ms).toBeLessThan(DEADLINE_MS + 1_000);
    expect(signals.map((s) => [s.aborted, isRegistryError(s.reason, "ERR_REGISTRY_TIMEOUT")])).toEqual([[true, true]]);
  });

  it("bounds an error body that never ends, and a refused DELETE whose body never ends", { timeout: 5_000 }, async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, options);
    world.registry.handle((_req, res) => drip(res, 500, '{"errors":[{"code":"UNKNOWN","message":"'));
    const status = await timed(registry.getManifest("vm", "hibernate"));
    expect([status.code, status.message]).toEqual([
      "ERR_REGISTRY_STATUS",
      "get manifest vm:hibernate: unexpected status code 500 Internal Server Error",
    ]);
    expect(status.ms).toBeLessThan(DEADLINE_MS);
    world.registry.handle((_req, res) => drip(res, 405, '{"errors":[{"code":"UNSUPPORTED","message":"'));
    const del = await timed(registry.deleteManifest("vm", "hibernate"));
    expect([del.code, del.message]).toEqual([
      "ERR_REGISTRY_TIMEOUT",
      `delete manifest hibernate: not done within the call's ${DEADLINE_MS} ms deadline`,
    ]);
    expect(del.ms).toBeLessThan(DEADLINE_MS + 1_000);
  });
});

describe("every body read from the network has a cap", () => {
  it("a manifest over 4 MiB is a typed error, with its Content-Length or without one", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch);
    const huge = Buffer.alloc((4 << 20) + 1, 0x20);
    for (const length of [String(huge.length), undefined]) {
      world.registry.handle((_req, res) => {
        res.writeHead(200, {
          "content-type": OCI_MANIFEST,
          "docker-content-digest": MANIFEST_DIGEST,
          ...(length ? { "content-length": length } : {}),
        });
        res.end(huge);
      });
      const err = await timed(registry.getManifest("vm", "hibernate"));
      expect([err.code, err.message]).toEqual([
        "ERR_REGISTRY_STATUS",
        "get manifest vm:hibernate: the body is over the 4194304-byte limit",
      ]);
    }
  });

  it("a token response over 1 MiB is an auth error; an error body over 64 KiB is dropped", async () => {
    const registry = hostileRegistry(world.registry.host, world.fetch, { credentials: staticCredentials({}) });
    bearerRegistry((res) => json(res, 200, { token: "t", padding: "x".repeat(2 << 20) }));
    const token = await timed(registry.hasManifest("vm", "hibernate"));
    expect([token.code, token.message]).toEqual([
      "ERR_REGISTRY_UNAUTHORIZED",
      "get token for repository:vm:pull: the token response is over the 1048576-byte limit",
    ]);
    world.registry.handle((_req, res) => json(res, 500, { errors: [{ code: "UNKNOWN", message: "y".repeat(1 << 20) }] }));
    const status = await timed(registry.getManifest("vm", "hibernate"));
    expect([status.code, status.message]).toEqual([
      "ERR_REGISTRY_STATUS",
      "get manifest vm:hibernate: unexpected status code 500 Internal Server Error",
    ]);
  });
});

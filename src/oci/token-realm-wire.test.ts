// The token realm rule on the wire: a registry that names a token endpoint on another loopback
// port gets no token request (so no credentials) from us; one on its own host and port does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OCIRegistry } from "./oci-registry.js";
import { staticCredentials } from "./credentials.js";
import { RegistryError } from "./errors.js";

interface Peer {
  readonly host: string;
  readonly seen: string[];
  readonly server: Server;
}

/** A registry that challenges with `realm()` and serves `/token` itself, or a bare token endpoint. */
async function startPeer(realm: (self: string) => string): Promise<Peer> {
  const seen: string[] = [];
  let host = "";
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url?.split("?")[0]}`);
    if (req.url?.startsWith("/token")) return void res.writeHead(200, { "content-type": "application/json" }).end('{"token":"good"}');
    if (req.headers.authorization !== "Bearer good") {
      return void res.writeHead(401, { "www-authenticate": `Bearer realm="${realm(host)}",service="stub"` }).end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, seen, server };
}

describe("the token realm on the wire", () => {
  let elsewhere: Peer;
  beforeAll(async () => void (elsewhere = await startPeer(() => "unused")));
  afterAll(() => void elsewhere.server.close());
  const client = (host: string) =>
    new OCIRegistry(host, { credentials: staticCredentials({ [host]: { username: "agent", password: "hunter2" } }) });

  it("sends no token request to a realm on another loopback port: ERR_REGISTRY_UNAUTHORIZED naming that host", async () => {
    const registry = await startPeer(() => `http://${elsewhere.host}/token`);
    try {
      const err = await client(registry.host)
        .hasManifest("vm", "hibernate")
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RegistryError);
      expect([(err as RegistryError).code, (err as RegistryError).message]).toEqual([
        "ERR_REGISTRY_UNAUTHORIZED",
        `get token for repository:vm:pull: refusing the token realm host ${elsewhere.host}: a loopback, private or link-local address that is not the registry ${registry.host}`,
      ]);
      expect(registry.seen).toEqual(["HEAD /v2/vm/manifests/hibernate"]);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      registry.server.close();
    }
  });

  it("fetches the token from a realm on the registry's own host and port", async () => {
    const registry = await startPeer((self) => `http://${self}/token`);
    try {
      expect(await client(registry.host).hasManifest("vm", "hibernate")).toBe(false);
      expect(registry.seen).toEqual(["HEAD /v2/vm/manifests/hibernate", "GET /token", "HEAD /v2/vm/manifests/hibernate"]);
    } finally {
      registry.server.close();
    }
  });
});

import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { hostileFetch } from "./hostile-client.js";
import { startPeer, type Peer } from "./peer.js";
import { makeTestPKI } from "./test-ca.js";

/**
 * The hostile peers of one test file, each a real server with its own name: a registry, a CDN it
 * may redirect to, an attacker's host, and a plain-HTTP host whose name does not look like loopback
 * (all TLS peers share one certificate from a CA made for this run).
 */
export interface HostileWorld {
  readonly registry: Peer;
  readonly cdn: Peer;
  readonly evil: Peer;
  /** Plain HTTP, named `plain.test`: neither loopback nor insecure unless a test lists it. */
  readonly plain: Peer;
  /** Trusts only this run's CA; resolves `*.test` to loopback. */
  readonly fetch: typeof fetch;
  close(): Promise<void>;
}

/** Starts every peer of a {@link HostileWorld}. */
export async function startWorld(): Promise<HostileWorld> {
  const pki = makeTestPKI(["registry.test", "cdn.test", "evil.test"]);
  const [registry, cdn, evil, plain] = await Promise.all([
    startPeer("registry.test", pki.server),
    startPeer("cdn.test", pki.server),
    startPeer("evil.test", pki.server),
    startPeer("plain.test", undefined),
  ]);
  const client = hostileFetch(pki.ca);
  return {
    registry,
    cdn,
    evil,
    plain,
    fetch: client.fetch,
    async close() {
      await client.close();
      await Promise.all([registry, cdn, evil, plain].map((p) => p.close()));
    },
  };
}

/** A small manifest and its digest, as a registry would serve them. */
export const MANIFEST = Buffer.from('{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{},"layers":[]}');
export const MANIFEST_DIGEST = `sha256:${createHash("sha256").update(MANIFEST).digest("hex")}`;
export const OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

/** Answers a manifest HEAD/GET as distribution does, with the given headers overriding. */
export function serveManifest(res: ServerResponse, headers: Record<string, string | undefined> = {}): void {
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    "content-type": OCI_MANIFEST,
    "docker-content-digest": MANIFEST_DIGEST,
    "content-length": String(MANIFEST.length),
    ...headers,
  })) {
    if (v !== undefined) all[k] = v;
  }
  res.writeHead(200, all);
  res.end(MANIFEST);
}

/** A 401 asking for a bearer token from `realm`. */
export function bearerChallenge(res: ServerResponse, realm: string): void {
  res.writeHead(401, {
    "www-authenticate": `Bearer realm="${realm}",service="registry.test",scope="repository:vm:pull"`,
    "content-type": "application/json",
  });
  res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
}

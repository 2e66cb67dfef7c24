import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Watch } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { createClients, loadKubeConfig } from "../../src/k8s/index.js";
import { watchKubeConfig } from "../../src/k8s/watch/watch-kubeconfig.js";
import { BEARER_TOKEN, podObject, startAPIServer, statusNotFound, type HostileAPIServer } from "./support/api-server.js";
import { startMTLSPeer } from "./support/mtls-peer.js";
import { makeTestPKI } from "./support/test-ca.js";

// Rule 3 of issue 33: the bearer token and the client certificate stay with the API server's
// origin (scheme, host and port). client-go's rule: a redirect is followed only within the origin.

const REDIRECTS = [301, 302, 303, 307, 308] as const;

/** Every Authorization header any of the two servers received. */
const tokensSeen = (api: HostileAPIServer): unknown[] => [...api.peer.seen, ...api.other.seen].map((r) => r.headers["authorization"]);

describe("credentials stay with the API server's origin (issue 33, rule 3)", () => {
  let api: HostileAPIServer;
  beforeAll(async () => {
    api = await startAPIServer();
  });
  afterAll(() => api.close());

  for (const code of REDIRECTS) {
    it(`a GET answered ${code.toString()} to the same host on another port rejects before anything is sent there`, async () => {
      api.handle((req, res) => {
        res.writeHead(code, { location: `${api.other.origin}${req.path}` }).end();
      });
      api.other.handle((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(podObject("x", "ns", "u1")));
      });
      const err: unknown = await api.clients.core.readNamespacedPod({ name: "x", namespace: "ns" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCocoonError(err, "ERR_CROSS_ORIGIN_REDIRECT")).toBe(true);
      expect(api.peer.seen.length).toBe(1);
      expect(api.other.seen.length).toBe(0);
      expect(tokensSeen(api)).toEqual([`Bearer ${BEARER_TOKEN}`]);
    });
  }

  for (const code of [307, 308] as const) {
    it(`a DELETE answered ${code.toString()} to another origin rejects, and the other origin never sees it`, async () => {
      api.handle((req, res) => {
        res.writeHead(code, { location: `${api.other.origin}${req.path}` }).end();
      });
      api.other.handle((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(podObject("x", "ns", "u1")));
      });
      const err: unknown = await api.clients.core.deleteNamespacedPod({ name: "x", namespace: "ns" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCocoonError(err, "ERR_CROSS_ORIGIN_REDIRECT")).toBe(true);
      expect(api.peer.seen.map((r) => r.method)).toEqual(["DELETE"]);
      expect(api.other.seen.length).toBe(0);
    });
  }

  it("a redirect to another scheme (http on the same host and port) is another origin", async () => {
    api.handle((req, res) => {
      res.writeHead(307, { location: `${api.peer.origin.replace("https:", "http:")}${req.path}` }).end();
    });
    api.other.handle(statusNotFound);
    const err: unknown = await api.clients.core.readNamespacedPod({ name: "x", namespace: "ns" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCocoonError(err, "ERR_CROSS_ORIGIN_REDIRECT")).toBe(true);
    expect(api.peer.seen.length).toBe(1);
  });

  it("a redirect to another path on the same origin is followed, with the token, as client-go does", async () => {
    api.handle((req, res) => {
      if (req.path.startsWith("/api/v1/namespaces/ns/pods/x")) {
        res.writeHead(307, { location: "/api/v1/namespaces/ns/pods/y" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(podObject("y", "ns", "u2")));
    });
    api.other.handle(statusNotFound);
    const pod = await api.clients.core.readNamespacedPod({ name: "x", namespace: "ns" });
    expect(pod.metadata?.name).toBe("y");
    expect(api.peer.seen.map((r) => r.path)).toEqual(["/api/v1/namespaces/ns/pods/x", "/api/v1/namespaces/ns/pods/y"]);
    expect(tokensSeen(api)).toEqual([`Bearer ${BEARER_TOKEN}`, `Bearer ${BEARER_TOKEN}`]);
    expect(api.other.seen.length).toBe(0);
  });

  it("a watch request redirected to another origin ends with the typed error, and the other origin sees nothing", async () => {
    api.handle((req, res) => {
      res.writeHead(307, { location: `${api.other.origin}${req.path}` }).end();
    });
    api.other.handle(statusNotFound);
    const watch = new Watch(watchKubeConfig(api.kubeConfig, api.clients.configuration));
    const ended = new Promise<unknown>((resolve) => {
      void watch.watch("/api/v1/namespaces/ns/pods", {}, () => undefined, resolve).catch(resolve);
    });
    const err = await ended;
    const cause = err instanceof Error && !isCocoonError(err) ? err.cause : err;
    expect(isCocoonError(cause, "ERR_CROSS_ORIGIN_REDIRECT")).toBe(true);
    expect(api.peer.seen.length).toBe(1);
    expect(api.other.seen.length).toBe(0);
  });
});

describe("a client certificate stays with the API server's origin (issue 33, rule 3)", () => {
  it("is never offered to another origin a redirect names: no handshake there, no request", async () => {
    const pki = makeTestPKI(["127.0.0.1"]);
    const other = await startMTLSPeer(pki.server, () => ({ status: 200, body: podObject("x", "ns", "u1") }));
    const server = await startMTLSPeer(pki.server, (path) => ({ status: 307, headers: { location: `${other.origin}${path}` } }));
    const dir = mkdtempSync(join(tmpdir(), "cocoon-hostile-mtls-"));
    const file = join(dir, "kubeconfig");
    const b64 = (text: string): string => Buffer.from(text).toString("base64");
    writeFileSync(
      file,
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        `- {name: c, cluster: {server: "${server.origin}", certificate-authority-data: ${b64(pki.ca)}}}`,
        "users:",
        `- {name: u, user: {client-certificate-data: ${b64(pki.client.cert)}, client-key-data: ${b64(pki.client.key)}}}`,
        "contexts:",
        "- {name: c, context: {cluster: c, user: u, namespace: ns}}",
        "current-context: c",
        "",
      ].join("\n"),
    );
    const clients = createClients(loadKubeConfig({ env: { KUBECONFIG: file } }));
    try {
      const err: unknown = await clients.core.readNamespacedPod({ name: "x", namespace: "ns" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCocoonError(err, "ERR_CROSS_ORIGIN_REDIRECT")).toBe(true);
      expect(server.presented).toEqual(["cocoon-agent"]);
      expect(server.requests).toEqual(["GET /api/v1/namespaces/ns/pods/x"]);
      expect(other.handshakes).toBe(0);
      expect(other.presented).toEqual([]);
      expect(other.requests).toEqual([]);
    } finally {
      clients.close();
      await Promise.all([server.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

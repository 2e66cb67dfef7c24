import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { createClients, loadKubeConfig, statusCode, watchCocoonHibernations } from "../../src/k8s/index.js";
import { BEARER_TOKEN, podObject, startAPIServer, statusNotFound, type HostileAPIServer } from "./support/api-server.js";
import { startMTLSPeer } from "./support/mtls-peer.js";
import { hibernation, isWatch, listAndWatch, record, sendList } from "./support/scripted-watch.js";
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

  it("a watch request answered with a redirect to another origin is not followed: a retry, and the other origin sees nothing", async () => {
    api.handle(
      listAndWatch(
        (res) => sendList(res, [hibernation("a", "5")], "10"),
        (res, _n, req) => {
          res.writeHead(307, { location: `${api.other.origin}${req.path}` }).end();
        },
      ),
    );
    api.other.handle(statusNotFound);
    const controller = new AbortController();
    const rec = record(watchCocoonHibernations(api.clients, { namespace: "ns", signal: controller.signal }));
    await rec.until((e) => e.type === "retrying", { timeoutMs: 5_000 });
    controller.abort();
    await rec.done;
    expect(rec.lines().slice(0, 2)).toEqual(["added ns/a@5", "synced 10"]);
    expect(statusCode(rec.events[2]?.type === "retrying" ? rec.events[2].error : undefined)).toBe(307);
    expect(api.peer.seen.filter(isWatch).length).toBe(1);
    expect(api.other.seen.length).toBe(0);
    expect(tokensSeen(api)).toEqual([`Bearer ${BEARER_TOKEN}`, `Bearer ${BEARER_TOKEN}`]);
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
      expect(server.presented).toEqual(["cocoon-kubelet"]);
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

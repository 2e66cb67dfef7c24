import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import { createClients, kubeconfigRequester, loadKubeConfig, type CocoonClients, type KubeRequester } from "../../../src/k8s/index.js";
import { json, startPeer, type Peer, type PeerHandler } from "./peer.js";
import { makeTestPKI } from "./test-ca.js";

/** The bearer token every hostile API server's kubeconfig carries. */
export const BEARER_TOKEN = "hostile-suite-token-3b1f";

/**
 * A malicious API server over real TLS, reached as a virtual kubelet reaches its cluster: a kubeconfig file
 * (server, this run's CA, a bearer token) read by `loadKubeConfig`, and `createClients` on it.
 * `other` is a second server on the same host and another port, with the same certificate: a
 * redirect there leaves the API server's origin.
 */
export interface HostileAPIServer {
  /** The API server; `peer.seen` is every request it received. */
  readonly peer: Peer;
  /** Same host, another port: another origin. */
  readonly other: Peer;
  readonly kubeConfig: KubeConfig;
  readonly clients: CocoonClients;
  /** The same kubeconfig file read by `kubeconfigRequester`: the `./kubelet` path, no client-node. */
  readonly requester: KubeRequester;
  /** Replaces the API server's handler and forgets what it saw. */
  handle(handler: PeerHandler): void;
  close(): Promise<void>;
}

/** Starts a {@link HostileAPIServer} answering with `handler` (404 `Status` by default). */
export async function startAPIServer(handler: PeerHandler = statusNotFound): Promise<HostileAPIServer> {
  const pki = makeTestPKI(["127.0.0.1"]);
  const [peer, other] = await Promise.all([
    startPeer("127.0.0.1", pki.server, handler),
    startPeer("127.0.0.1", pki.server, statusNotFound),
  ]);
  const dir = mkdtempSync(join(tmpdir(), "cocoon-hostile-apiserver-"));
  const file = join(dir, "kubeconfig");
  writeFileSync(file, kubeconfigYAML(peer.origin, pki.ca));
  const kubeConfig = loadKubeConfig({ env: { KUBECONFIG: file } });
  const clients = createClients(kubeConfig);
  const requester = await kubeconfigRequester({ path: file });
  return {
    peer,
    other,
    kubeConfig,
    clients,
    requester,
    handle: (next) => peer.handle(next),
    async close() {
      clients.close();
      requester.close();
      await Promise.all([peer.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function kubeconfigYAML(server: string, ca: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: hostile",
    "  cluster:",
    `    server: ${server}`,
    `    certificate-authority-data: ${Buffer.from(ca).toString("base64")}`,
    "users:",
    "- name: kubelet",
    "  user:",
    `    token: ${BEARER_TOKEN}`,
    "contexts:",
    "- name: hostile",
    "  context: {cluster: hostile, user: kubelet, namespace: ns}",
    "current-context: hostile",
    "",
  ].join("\n");
}

/** A `Status` body, as the API server sends with every refusal. */
export function status(res: ServerResponse, code: number, reason: string, message = reason): void {
  json(res, code, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code });
}

/** 404 NotFound for whatever was asked. */
export const statusNotFound: PeerHandler = (req, res) => {
  status(res, 404, "NotFound", `${req.method} ${req.path} not found`);
};

/** A pod as the API server would return it. */
export function podObject(name: string, namespace: string, uid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: "Pod",
    apiVersion: "v1",
    metadata: { name, namespace, uid, resourceVersion: "7", creationTimestamp: "2026-12-01T00:00:00Z", ...extra },
    spec: { containers: [{ name: "agent", image: "vm" }] },
    status: { phase: "Running" },
  };
}

// The virtual kubelet's functions over a KubeRequester against the real API server: the same requests
// (count, order, method, path, content type, pod bodies) as over client-node's clients, through a
// recording proxy; and the two client-node-free loaders (a kubeconfig file with a client certificate
// or a token, a fake service account directory) authenticated by the real server.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  finishPodDeletion,
  keepNode,
  kubeConfigRequester,
  reportVM,
  watchCocoonPods,
  type CocoonClients,
  type KubeRequester,
} from "../../src/k8s/index.js";
import { inClusterRequester, kubeconfigRequester, KubeStatusError } from "../../src/kubelet/index.js";
import { parseKubeconfigYAML } from "../../src/k8s/request/kubeconfig-yaml.js";
import { Label, LifecycleState, TOLERATION_KEY, VMState } from "../../src/meta/index.js";
import { closeProxiedSuite, openProxiedSuite, type RecordingProxy } from "./k8s-counting-proxy.js";
import { getControlPlane } from "./helpers.js";

let ns: string;
let proxy: RecordingProxy;
let viaProxy: CocoonClients;
let admin: CocoonClients;
let dir: string;

beforeAll(async () => {
  ({ ns, proxy, viaProxy, admin } = await openProxiedSuite("k8s-requester"));
  dir = mkdtempSync(path.join(tmpdir(), "requester-"));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeProxiedSuite({ proxy, viaProxy, admin });
});

const GiB = 2 ** 30;
const RESOURCES = { cpuCores: 4, memoryBytes: 8 * GiB, storageBytes: 100 * GiB, snapshotCache: { allocatableBytes: 50 * GiB } };
const NOW = new Date("2026-12-05T10:00:00Z");

/** A kubeconfig file with the admin token, its server the recording proxy (plain HTTP). */
function proxyKubeconfig(name: string): string {
  const server = new URL(proxy.kubeConfig().getCurrentCluster()?.server ?? "").origin;
  const file = path.join(dir, name);
  const yaml = [
    "apiVersion: v1",
    "kind: Config",
    "current-context: proxy",
    "clusters: [{ name: proxy, cluster: { server: '" + server + "' } }]",
    "users: [{ name: admin, user: { token: '" + getControlPlane().connection.adminToken + "' } }]",
    "contexts: [{ name: proxy, context: { cluster: proxy, user: admin } }]",
  ].join("\n");
  writeFileSync(file, yaml, { mode: 0o600 });
  return file;
}

/** A cocoon pod bound to `node`: the label the watch selects and the provider toleration. */
const cocoonPod = (name: string, node: string): Promise<V1Pod> =>
  admin.core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name, labels: { [Label.CocoonSet]: "set" } },
      spec: {
        nodeName: node,
        tolerations: [{ key: TOLERATION_KEY, operator: "Exists" }],
        containers: [{ name: "agent", image: "agent:1" }],
      },
    },
  });

/**
 * One agent's life on `node`: keep the node (create, status, Lease) and stop it (Ready=False); watch
 * its pod until synced; report its VM (runtime, status, lifecycle); finish its deletion. Resolves to
 * the requests the proxy saw, each with the node and pod names replaced by `NODE` and `POD`.
 */
async function agentLife(client: CocoonClients | KubeRequester, node: string): Promise<string[]> {
  const pod = await cocoonPod(`${node}-pod`, node);
  proxy.reset();
  const stop = new AbortController();
  const kept = await keepNode(client, { name: node, nodeIP: "10.0.0.9", resources: RESOURCES, leaseRenewMs: 100, signal: stop.signal });
  // One renewal: the stored Lease sent back with a new renewTime.
  while (!proxy.requests.some((r) => r.method === "PUT")) await new Promise((resolve) => setTimeout(resolve, 10));
  stop.abort();
  await kept.stopped;
  const watchStop = new AbortController();
  for await (const event of watchCocoonPods(client, { namespace: ns, fieldSelector: `spec.nodeName=${node}`, signal: watchStop.signal })) {
    if (event.type !== "synced") continue;
    // The watch request follows the list: stop once it has reached the server.
    while (!proxy.requests.some((r) => r.path.includes("watch=true"))) await new Promise((resolve) => setTimeout(resolve, 10));
    watchStop.abort();
  }
  const vm = { state: VMState.Running, ip: "10.88.0.7", probeReady: true } as const;
  const report = { state: LifecycleState.Ready, vm, runtime: { vmID: "vm-1", ip: "10.88.0.7" } };
  const { pod: written, sent } = await reportVM(client, pod, report, { now: NOW });
  expect(sent).toEqual(["runtime", "status", "lifecycle"]);
  expect(await finishPodDeletion(client, written)).toBe("deleted");
  await admin.core.deleteNode({ name: node });
  const uid = pod.metadata?.uid ?? "";
  const names = (text: string) => text.replaceAll(`${node}-pod`, "POD").replaceAll(node, "NODE").replaceAll(uid, "UID");
  // A Lease body as an object: keys sorted, the server's bookkeeping (managedFields) left out, times, uids and
  // resource versions masked; the renewTime keeps its format (a MicroTime: six fractional digits).
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  const masked = (text: string) => {
    const lease = JSON.parse(text) as { metadata?: Record<string, unknown>; spec?: { renewTime?: string } };
    delete lease.metadata?.["managedFields"];
    const renewTime = lease.spec?.renewTime?.replace(/^.*T.*(\.\d+Z)$/, "TIME$1").replace(/\d/g, "f");
    return names(JSON.stringify(sorted(lease)))
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "TIME")
      .replace(/"(uid|resourceVersion)":"[^"]*"/g, '"$1":"X"')
      .replace('"renewTime":"TIME"', `"renewTime":"${renewTime ?? ""}"`);
  };
  const lines = proxy.requests.map((r) => {
    const query = r.path.replace(/resourceVersion=\d+/, "resourceVersion=RV").replace(/timeoutSeconds=\d+/, "timeoutSeconds=T");
    const line = `${r.method} ${names(query)} ${r.contentType ?? "-"} ${r.status ?? 0}`;
    // The pod writes' bodies are fixed by the report; the Lease's are compared with their times masked.
    if (r.path.includes("/pods/")) return `${line} ${names(r.body)}`;
    return r.path.includes("/leases") && r.body !== "" ? `${line} ${masked(r.body)}` : line;
  });
  return lines.filter((line, i) => !line.startsWith("PUT ") || line !== lines[i - 1]); // renewals repeat as the timer fires
}

describe("the kubelet's functions over a KubeRequester (real API server)", () => {
  it("send what client-node's clients send: the same requests, in the same order, with the same bodies", async () => {
    const overClientNode = await agentLife(viaProxy, "cocoon-cn");
    const overKubeConfig = kubeConfigRequester(proxy.kubeConfig());
    const overFile = await kubeconfigRequester({ path: proxyKubeconfig("token") });
    try {
      expect(await agentLife(overKubeConfig, "cocoon-kc")).toEqual(overClientNode);
      expect(await agentLife(overFile, "cocoon-file")).toEqual(overClientNode);
    } finally {
      overKubeConfig.close();
      overFile.close();
    }
    expect(overClientNode.map((line) => line.split(" ").slice(0, 2).join(" ").split("?")[0])).toEqual([
      "POST /api/v1/nodes",
      "PATCH /api/v1/nodes/NODE/status",
      "GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/NODE",
      "POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
      "PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/NODE",
      "PATCH /api/v1/nodes/NODE/status",
      `GET /api/v1/namespaces/${ns}/pods`,
      `GET /api/v1/namespaces/${ns}/pods`,
      `PATCH /api/v1/namespaces/${ns}/pods/POD`,
      `PATCH /api/v1/namespaces/${ns}/pods/POD/status`,
      `PATCH /api/v1/namespaces/${ns}/pods/POD`,
      `DELETE /api/v1/namespaces/${ns}/pods/POD`,
    ]);
  });
});

describe("kubeconfigRequester and inClusterRequester (real API server)", () => {
  const plane = () => getControlPlane();
  const server = () => new URL(plane().connection.server);

  it("a kubeconfig with a client certificate authenticates as its user", async () => {
    const file = path.join(dir, "cert");
    const text = plane().kubeconfigYaml("alice", ["system:masters"]);
    writeFileSync(file, text, { mode: 0o600 });
    // Read without the yaml package, as yaml reads it.
    expect(parseKubeconfigYAML(text)).toEqual(parse(text));
    expect(parseKubeconfigYAML(plane().kubeconfigYaml())).toEqual(parse(plane().kubeconfigYaml()));
    const requester = await kubeconfigRequester({ path: file });
    try {
      const answer = await requester.send({ method: "GET", path: `/api/v1/namespaces/${ns}` });
      answer.body.resume();
      expect(answer.statusCode).toBe(200);
      const stop = new AbortController();
      const kept = await keepNode(requester, { name: "cocoon-cert", nodeIP: "10.0.0.9", resources: RESOURCES, signal: stop.signal });
      expect(kept.node.metadata?.name).toBe("cocoon-cert");
      stop.abort();
      await kept.stopped;
      await admin.core.deleteNode({ name: "cocoon-cert" });
    } finally {
      requester.close();
    }
  });

  it("a service account's token directory authenticates as the service account, the token read from its file", async () => {
    await admin.core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: "kubelet" } } });
    const token = (await plane().kubeConfigForServiceAccount(ns, "kubelet")).getCurrentUser()?.token ?? "";
    const saDir = mkdtempSync(path.join(dir, "sa-"));
    writeFileSync(path.join(saDir, "token"), `${token}\n`);
    writeFileSync(path.join(saDir, "ca.crt"), plane().connection.caPem);
    writeFileSync(path.join(saDir, "namespace"), ns);
    const env = { KUBERNETES_SERVICE_HOST: server().hostname, KUBERNETES_SERVICE_PORT: server().port };
    const requester = inClusterRequester({ dir: saDir, env });
    try {
      const error = await finishPodDeletion(requester, { kind: "Pod", metadata: { name: "x", namespace: ns, uid: "u" } }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KubeStatusError);
      expect([(error as KubeStatusError).code, (error as KubeStatusError).statusCode]).toEqual(["ERR_KUBE_STATUS", 403]);
      expect((error as KubeStatusError).message).toContain(`system:serviceaccount:${ns}:kubelet`);
    } finally {
      requester.close();
    }
    writeFileSync(path.join(saDir, "token"), "not-a-token");
    const stranger = inClusterRequester({ dir: saDir, env }); // a token the server never issued
    try {
      const answer = await stranger.send({ method: "GET", path: "/api/v1/namespaces" });
      answer.body.resume();
      expect(answer.statusCode).toBe(401);
    } finally {
      stranger.close();
    }
  });

  it("a kubeconfig with a tokenFile and a certificate-authority file, both relative to it, authenticates with that token", async () => {
    await admin.core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: "from-file" } } });
    const token = (await plane().kubeConfigForServiceAccount(ns, "from-file")).getCurrentUser()?.token ?? "";
    const home = mkdtempSync(path.join(dir, "kubeconfig-"));
    writeFileSync(path.join(home, "token"), token);
    writeFileSync(path.join(home, "ca.crt"), plane().connection.caPem);
    const file = path.join(home, "config");
    writeFileSync(
      file,
      [
        "current-context: sa",
        "contexts:",
        "- name: sa",
        "  context: {cluster: plane, user: sa}",
        "clusters:",
        "- name: plane",
        "  cluster:",
        `    server: ${plane().connection.server}`,
        "    certificate-authority: ca.crt",
        "users:",
        "- name: sa",
        "  user:",
        "    tokenFile: token",
        "",
      ].join("\n"),
    );
    const requester = await kubeconfigRequester({ path: file });
    try {
      const error = await finishPodDeletion(requester, { kind: "Pod", metadata: { name: "x", namespace: ns, uid: "u" } }).catch(
        (e: unknown) => e,
      );
      expect([(error as KubeStatusError).code, (error as KubeStatusError).statusCode]).toEqual(["ERR_KUBE_STATUS", 403]);
      expect((error as KubeStatusError).message).toContain(`system:serviceaccount:${ns}:from-file`);
    } finally {
      requester.close();
    }
  });

  it("refuses what it cannot send, naming the field", async () => {
    expect(() => inClusterRequester({ dir, env: {} })).toThrow(
      "not in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must both be set",
    );
    const file = path.join(dir, "exec");
    writeFileSync(
      file,
      "current-context: c\ncontexts: [{ name: c, context: { cluster: k, user: u } }]\nclusters: [{ name: k, cluster: { server: 'https://127.0.0.1:1' } }]\nusers: [{ name: u, user: { exec: { command: x } } }]\n",
    );
    await expect(kubeconfigRequester({ path: file })).rejects.toThrow(
      `${file}: user u.exec is not supported on this path: use a client certificate or a token`,
    );
  });
});

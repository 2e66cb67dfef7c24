/**
 * What keeping one node costs the API server: the requests `keepNode` sends per minute on its default
 * schedule (`NODE_HEARTBEAT`: a 40 s Lease renewed every 10 s, the status re-sent every minute), counted
 * on the wire by a plain-HTTP proxy in front of a real kube-apiserver, after the registration.
 *
 * Each minute's window starts where the last ended, so a tick that falls on the boundary may count in
 * the next minute: read the steady minutes. On 2026-12-04: 4 requests to register, then 7 a minute
 * (6 Lease PUTs, 1 status PATCH).
 *
 * Run: npm run bench:heartbeat [-- --minutes 3]
 */
import http from "node:http";
import https from "node:https";
import { parseArgs } from "node:util";
import { KubeConfig } from "@kubernetes/client-node";
import { createClients, keepNode, NODE_HEARTBEAT } from "../src/k8s/index.js";
import { startControlPlane } from "../src/testing/index.js";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "2" } } });
const minutes = Number(values.minutes);
await using plane = await startControlPlane();
const upstream = new URL(plane.connection.server);
const agent = new https.Agent({ keepAlive: true, ca: plane.connection.caPem });
const seen: string[] = [];
const proxy = http.createServer((req, res) => {
  seen.push(`${req.method ?? ""} ${(req.url ?? "").split("?")[0] ?? ""}`);
  const out = https.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  req.pipe(out);
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const port = (proxy.address() as { port: number }).port;
const kubeConfig = new KubeConfig();
kubeConfig.loadFromOptions({
  clusters: [{ name: "c", server: `http://127.0.0.1:${String(port)}`, skipTLSVerify: true }], // plain HTTP to the proxy
  users: [{ name: "u", token: plane.connection.adminToken }],
  contexts: [{ name: "x", cluster: "c", user: "u" }],
  currentContext: "x",
});
const clients = createClients(kubeConfig);
const stop = new AbortController();
const GiB = 2 ** 30;
const resources = { cpuCores: 8, memoryBytes: 32 * GiB, storageBytes: 200 * GiB, snapshotCache: { allocatableBytes: 100 * GiB } };
const kept = await keepNode(clients, { name: "cocoon-bench", nodeIP: "10.0.0.1", resources, signal: stop.signal, logger: console });
process.stderr.write(`registration: ${String(seen.length)} requests (${seen.join(", ")})\n`);
for (let minute = 1; minute <= minutes; minute++) {
  seen.length = 0;
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  const counts = new Map<string, number>();
  for (const request of seen) counts.set(request, (counts.get(request) ?? 0) + 1);
  const detail = [...counts].map(([request, n]) => `${String(n)} × ${request}`).join(", ");
  process.stdout.write(`minute ${String(minute)}: ${String(seen.length)} requests per node (${detail})\n`);
}
stop.abort();
await kept.stopped;
clients.close();
proxy.close();
agent.destroy();
process.stdout.write(`schedule: ${JSON.stringify(NODE_HEARTBEAT)}\n`);

/**
 * The pods of bench/watch.bench.ts: operator-built main pods (buildMainPod's shape and size),
 * created in a namespace by concurrent requests and deleted by the server in batches
 * (deletecollection by a batch label), so that the events a watcher sees come from the server alone.
 */
import https from "node:https";
import type { CocoonClients } from "../src/k8s/index.js";
import { buildMainPod } from "../src/meta/index.js";
import type { ControlPlaneConnection } from "../src/testing/index.js";

/** Pods carry a batch label, so a deletion is a handful of server-side deletecollection requests. */
const BATCHES = 50;
const BATCH_LABEL = "bench.cocoonstack.io/batch";
const CREATE_CONCURRENCY = 32;
const DELETE_CONCURRENCY = 4;
const DELETE_ATTEMPTS = 3;

const template = buildMainPod({
  metadata: { name: "bench", namespace: "bench", uid: "00000000-0000-4000-8000-000000000000", generation: 1 },
  spec: { agent: { image: "ghcr.io/cocoonstack/agent:1.4" } },
});

/** Runs `work(i)` for i in [from, to) with `concurrency` calls in flight. */
async function pool(from: number, to: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Creates pods `bench-<from>` … `bench-<to - 1>` in `namespace`, bound to `nodeName` when given. */
export async function createPods(clients: CocoonClients, namespace: string, from: number, to: number, nodeName?: string): Promise<void> {
  await pool(from, to, CREATE_CONCURRENCY, (i) => {
    const body = structuredClone(template);
    body.metadata.name = `bench-${i}`;
    body.metadata.namespace = namespace;
    body.metadata.labels[BATCH_LABEL] = String(i % BATCHES);
    if (nodeName !== undefined) body.spec.nodeName = nodeName;
    return clients.core.createNamespacedPod({ namespace, body });
  });
}

/**
 * Has the server delete every pod of `namespace` (a pod's deletion is two watch events: the
 * deletion timestamp, then the removal). Sent raw, the answers drained unread: a deletecollection
 * answers with every pod it deleted, which a client-node call would deserialize, on this
 * process's CPU, while the watcher's CPU per event is being measured.
 */
export async function deleteAllPods(connection: ControlPlaneConnection, namespace: string): Promise<void> {
  const url = new URL(connection.server);
  const agent = new https.Agent({ keepAlive: true, ca: connection.caPem });
  const remove = (batch: number) =>
    new Promise<void>((resolve, reject) => {
      const selector = encodeURIComponent(`${BATCH_LABEL}=${batch}`);
      const path = `/api/v1/namespaces/${namespace}/pods?labelSelector=${selector}&gracePeriodSeconds=0`;
      const headers = { Authorization: `Bearer ${connection.adminToken}`, Accept: "application/json" };
      const req = https.request({ host: url.hostname, port: url.port, path, method: "DELETE", agent, headers }, (res) => {
        res.resume();
        res.on("error", reject);
        res.on("end", () => ((res.statusCode ?? 0) === 200 ? resolve() : reject(new Error(`DELETE ${path}: HTTP ${res.statusCode ?? 0}`))));
      });
      req.on("error", reject);
      req.end();
    });
  // A deletecollection that the server cuts short (a 5xx under load) is sent again: it deletes what is left.
  const removeWithRetries = async (batch: number): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await remove(batch);
        return;
      } catch (err) {
        if (attempt === DELETE_ATTEMPTS) throw err;
        process.stderr.write(`bench: ${(err as Error).message}; sending it again (${attempt + 1}/${DELETE_ATTEMPTS})\n`);
      }
    }
  };
  try {
    await pool(0, BATCHES, DELETE_CONCURRENCY, removeWithRetries);
  } finally {
    agent.destroy();
  }
}

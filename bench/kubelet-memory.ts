/**
 * A long-running virtual kubelet's resident memory against a bare Node process: a fresh process imports the
 * built package (`dist/`) as a virtual kubelet does and runs what a virtual kubelet keeps running, against a local
 * kube-apiserver holding N operator-built pods bound to its node: `keepNode` (its Node, Lease and
 * heartbeats), a typed watch of the node's pods (`watchCocoonPods` by `spec.nodeName`) and an idle
 * `OCIRegistry`: on `./k8s` with client-node's clients, and on `./kubelet` with a `KubeRequester` read from
 * the same kubeconfig (with `./snapshot` imported, and without it). Once the watch is synced it waits `--settle` seconds, runs a full collection and
 * prints its RSS; the bare process (`node -e` with a timer) does the same. Alternated rounds, median
 * [min–max] of each RSS and of their difference.
 *
 * Run: npm run build && npm run bench:kubelet-memory [-- --pods 1000] [-- --rounds 3] [-- --settle 15]
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createClients } from "../src/k8s/index.js";
import { KUBERNETES_VERSION, startControlPlane } from "../src/testing/index.js";
import { median } from "./measure-async.js";
import { createPods } from "./watch-pods.js";

const { values: args } = parseArgs({
  options: {
    pods: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    settle: { type: "string", default: "15" },
  },
});
const PODS = Number(args.pods);
const ROUNDS = Number(args.rounds);
const SETTLE_MS = Number(args.settle) * 1000;
const NODE = "cocoon-bench";
const NAMESPACE = "bench-kubelet";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = (entry: string): string => pathToFileURL(path.join(root, "dist", entry, "index.js")).href;

/** What every virtual kubelet process runs once it has its client: the node kept, its pods watched, an idle registry; prints its RSS once settled. */
const RUN = `
const abort = new AbortController();
const GiB = 2 ** 30;
const resources = { cpuCores: 8, memoryBytes: 32 * GiB, storageBytes: 200 * GiB, snapshotCache: { allocatableBytes: 200 * GiB } };
const kept = await keepNode(client, { name: ${JSON.stringify(NODE)}, nodeIP: "10.0.0.9", resources, signal: abort.signal });
const registry = new OCIRegistry("127.0.0.1:5000");
const pods = new Map();
const watch = watchCocoonPods(client, { fieldSelector: "spec.nodeName=${NODE}", signal: abort.signal });
let synced;
const ready = new Promise((resolve) => (synced = resolve));
const loop = (async () => {
  for await (const event of watch) {
    if (event.type === "added" || event.type === "modified") pods.set(event.object.metadata.uid, event.object);
    else if (event.type === "deleted") pods.delete(event.object.metadata.uid);
    else if (event.type === "synced") synced();
  }
})();
await ready;
if (pods.size !== ${PODS}) throw new Error("watched " + pods.size + " pods, want ${PODS}");
await new Promise((resolve) => setTimeout(resolve, ${SETTLE_MS}));
globalThis.gc();
console.log(JSON.stringify({ rss: process.memoryUsage().rss, registry: typeof registry }));
abort.abort();
await loop;
await kept.stopped;
client.close();
`;

/** The virtual kubelet on `./k8s`: client-node's `KubeConfig` and `createClients`. */
const KUBELET_CLIENT_NODE = `
const { KubeConfig } = await import("@kubernetes/client-node");
const { createClients, keepNode, watchCocoonPods } = await import(${JSON.stringify(dist("k8s"))});
const { OCIRegistry } = await import(${JSON.stringify(dist("oci"))});
await import(${JSON.stringify(dist("meta"))});
await import(${JSON.stringify(dist("snapshot"))});
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env.BENCH_KUBECONFIG);
const client = createClients(kubeConfig);
${RUN}`;

/** The virtual kubelet on `./kubelet`: a `KubeRequester` from the kubeconfig file, no client-node; `./snapshot` imported or not. */
const kubeletNative = (snapshot: boolean): string => `
const { kubeconfigRequester, keepNode, watchCocoonPods } = await import(${JSON.stringify(dist("kubelet"))});
const { OCIRegistry } = await import(${JSON.stringify(dist("oci"))});
await import(${JSON.stringify(dist("meta"))});
${snapshot ? `await import(${JSON.stringify(dist("snapshot"))});` : ""}
const client = await kubeconfigRequester({ path: process.env.BENCH_KUBECONFIG });
${RUN}`;

/** The bare process: nothing imported, the same wait and collection. */
const BARE = `await new Promise((resolve) => setTimeout(resolve, ${SETTLE_MS})); globalThis.gc(); console.log(JSON.stringify({ rss: process.memoryUsage().rss }));`;

function rssOf(script: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--expose-gc", "--input-type=module", "-e", script],
      { cwd: root, env: { ...process.env, ...env }, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve((JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { rss: number }).rss);
      },
    );
  });
}

const MiB = 2 ** 20;
const plane = await startControlPlane({ installCRDs: false });
const dir = mkdtempSync(path.join(tmpdir(), "bench-kubelet-memory-"));
try {
  const admin = createClients(plane.kubeConfig);
  await admin.core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  await createPods(admin, NAMESPACE, 0, PODS, NODE);
  admin.close();
  const kubeconfig = path.join(dir, "kubeconfig");
  writeFileSync(kubeconfig, plane.kubeconfigYaml(), { mode: 0o600 });
  const env = { BENCH_KUBECONFIG: kubeconfig };
  const rows = {
    bare: [] as number[],
    clientNode: [] as number[],
    native: [] as number[],
    nativeNoSnapshot: [] as number[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    rows.bare.push(await rssOf(BARE));
    rows.clientNode.push(await rssOf(KUBELET_CLIENT_NODE, env));
    rows.native.push(await rssOf(kubeletNative(true), env));
    rows.nativeNoSnapshot.push(await rssOf(kubeletNative(false), env));
  }
  const over = (xs: readonly number[]): number[] => xs.map((x, i) => x - (rows.bare[i] as number));
  const row = (name: string, xs: readonly number[]): string =>
    `| ${name} | ${(median(xs) / MiB).toFixed(1)} MiB [${(Math.min(...xs) / MiB).toFixed(1)}–${(Math.max(...xs) / MiB).toFixed(1)}] |`;
  console.log(
    `Node ${process.version}, kube-apiserver ${KUBERNETES_VERSION}, ${PODS} pods on the node, ${ROUNDS} rounds, settled ${args.settle} s`,
  );
  console.log("| process | RSS after a full collection |\n|---|---:|");
  console.log(row("bare Node", rows.bare));
  console.log(row("./k8s (client-node): keepNode + watchCocoonPods + idle OCIRegistry, ./meta, ./snapshot", rows.clientNode));
  console.log(row("./kubelet (KubeRequester): the same", rows.native));
  console.log(row("./kubelet (KubeRequester): the same without ./snapshot", rows.nativeNoSnapshot));
  console.log(row("./k8s − bare", over(rows.clientNode)));
  console.log(row("./kubelet − bare", over(rows.native)));
  console.log(row("./kubelet without ./snapshot − bare", over(rows.nativeNoSnapshot)));
} finally {
  rmSync(dir, { recursive: true, force: true });
  await plane.stop();
}

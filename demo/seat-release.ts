/**
 * `npm run demo`: the release-policy hibernation of a CocoonSet, played the way cocoon-operator
 * and the vk-cocoon virtual kubelet play it, against a real etcd + kube-apiserver and a real registry
 * (CNCF distribution with token auth), using only this library.
 *
 * Exit status: 0 when every step's check holds, 1 when one fails (or anything else goes wrong),
 * 130 on Ctrl-C. The control plane and the registry are stopped in every case.
 *
 * @module
 */
import { createClients } from "../src/k8s/index.js";
import { OCIRegistry, staticCredentials } from "../src/oci/index.js";
import {
  ensureControlPlaneBinaries,
  registerNode,
  startControlPlane,
  startRegistry,
  type ControlPlane,
  type TestRegistry,
} from "../src/testing/index.js";
import { Label } from "../src/index.js";
import { releaseTheSeat, suspendSet, wake } from "./hibernation-steps.js";
import { CheckFailed } from "./report.js";
import { NODE, type Demo } from "./scenario.js";
import { createMainPod, installAndCreate } from "./setup-steps.js";
import { releaseWithRegistryDown, wakeWithoutSnapshot } from "./snapshot-gone-steps.js";

const started = Date.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const progress = (line: string) => console.log(`   [controlplane] ${line}`);
const abort = new AbortController();
let plane: ControlPlane | undefined;
let registryServer: TestRegistry | undefined;
let starting = false;

// Ctrl-C: stop the control plane and the registry, then exit 130. While they start, the aborted start cleans up and main() exits.
process.on("SIGINT", () => {
  if (abort.signal.aborted) process.exit(130); // a second Ctrl-C does not wait
  console.error("\ninterrupted: stopping the control plane and the registry");
  abort.abort();
  if (plane) void Promise.all([plane.stop(), registryServer?.stop()]).finally(() => process.exit(130));
  else if (!starting) process.exit(130);
});

/** Finds (or builds) the binaries and starts etcd + kube-apiserver, printing progress. */
async function start(): Promise<ControlPlane> {
  console.log("starting a control plane (etcd + kube-apiserver + kube-scheduler)");
  starting = true;
  const binaries = await ensureControlPlaneBinaries({ log: progress, signal: abort.signal });
  progress(`binaries from ${binaries.source}: ${binaries.kubeApiserver}`);
  plane = await startControlPlane({ binaries, installCRDs: false, scheduler: true, log: progress, signal: abort.signal });
  abort.signal.throwIfAborted();
  console.log(`control plane ready at ${plane.server} in ${seconds(plane.startupMs)}`);
  return plane;
}

/** Starts the snapshot registry (CNCF distribution, token auth) and the client both sides use. */
async function startSnapshotRegistry(): Promise<Pick<Demo, "server" | "registry" | "kubeletRegistry">> {
  console.log("starting a registry (CNCF distribution, token auth)");
  registryServer = await startRegistry({ auth: "token", log: (line) => console.log(`   [registry] ${line}`), signal: abort.signal });
  console.log(`registry ready at ${registryServer.url} in ${registryServer.startupMs} ms`);
  const { host, credentials } = registryServer;
  const client = (): OCIRegistry => new OCIRegistry(host, credentials ? { credentials: staticCredentials({ [host]: credentials }) } : {});
  return { server: registryServer, registry: client(), kubeletRegistry: client() };
}

async function main(): Promise<number> {
  console.log("cocoon-common demo: a CocoonSet with hibernatePolicy=release gives up its seat only once its snapshot is in the registry");
  const clients = createClients((await start()).kubeConfig);
  try {
    const namespace = "demo";
    await clients.core.createNamespace({ body: { metadata: { name: namespace } } });
    const node = await registerNode(clients, { name: NODE });
    console.log(`node ${NODE} registered (pool ${node.metadata?.labels?.[Label.NodePool]}, taint ${node.spec?.taints?.[0]?.key})`);
    const demo: Demo = { clients, namespace, ...(await startSnapshotRegistry()) };
    const steps = [installAndCreate, createMainPod, suspendSet, releaseTheSeat, wake, wakeWithoutSnapshot, releaseWithRegistryDown];
    for (const run of steps) await run(demo);
    console.log(`\nall ${steps.length} checks hold, ${seconds(Date.now() - started)} after the start`);
    return 0;
  } finally {
    clients.close();
  }
}

let code: number;
try {
  code = await main();
} catch (err) {
  code = abort.signal.aborted ? 130 : 1;
  const detail =
    err instanceof CheckFailed ? err.message : `demo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  if (code === 1) console.error(`\n✗ ${detail}`);
}
await registryServer?.stop();
if (plane) {
  const stopping = Date.now();
  await plane.stop();
  console.log(`control plane stopped in ${seconds(Date.now() - stopping)}`);
}
process.exit(code);

/**
 * The `./k8s` helpers against the raw keep-alive floor, on a real control plane (etcd + kube-apiserver).
 *
 * N sequential merge patches of one pod annotation (alternating values, so each is a real change) per
 * variant, interleaved in rounds (one call of each variant per round, in a shuffled order) so machine
 * load hits all alike, after a warm-up, repeated `--runs` times. Variants (see `k8s-variants.ts`):
 * floor (raw keep-alive `node:https`, same CA and token), `patchAnnotations` via `createClients`,
 * the same client-node API called directly, stock `kc.makeApiClient(CoreV1Api)`, and, to split
 * client-node's own cost from ours, two rows on the floor's agent and token: client-node's HTTP layer
 * alone (`IsomorphicFetchHttpLibrary`, i.e. node-fetch) and its typed `CoreV1Api` with a constant
 * authentication (no `KubeConfig`, no agent sharing): the least any client-node typed call costs.
 * Ratios are to the first variant listed (the floor unless `--only` says otherwise); `cpu us` is this
 * process's CPU time per call (user + system), which the server's share of the machine does not blur.
 *
 * Run: npm run bench:k8s [-- --runs 5 --n 400 --warmup 30 --only floor,helper --max-ratio 1.1]
 * (`--max-ratio`: exit 1 when the helper's median p50 ratio over the runs exceeds it.)
 * Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/k8s.bench.ts --only helper --runs 1 --n 3000
 */
import { parseArgs } from "node:util";
import { CoreV1Api } from "@kubernetes/client-node";
import { createClients } from "../src/k8s/index.js";
import { startControlPlane } from "../src/testing/index.js";
import { k8sVariants, TARGET } from "./k8s-variants.js";
import { rawPatcher } from "./raw-patch.js";
import { runRounds } from "./run-rounds.js";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    n: { type: "string", default: "400" },
    warmup: { type: "string", default: "30" },
    only: { type: "string" },
    "max-ratio": { type: "string" },
  },
});
const RUNS = Number(args.runs);
const N = Number(args.n);
const WARMUP = Number(args.warmup);

const plane = await startControlPlane({ installCRDs: false });
const clients = createClients(plane.kubeConfig);
const raw = rawPatcher(plane.connection);
let failed = false;
try {
  const admin = plane.kubeConfig.makeApiClient(CoreV1Api);
  await admin.createNamespace({ body: { metadata: { name: TARGET.namespace } } });
  await admin.createNamespacedPod({
    namespace: TARGET.namespace,
    body: { metadata: { name: TARGET.name }, spec: { containers: [{ name: "c", image: "busybox" }] } },
  });

  const all = k8sVariants(plane, clients, raw);
  const keys = args.only?.split(",") ?? Object.keys(all);
  const variants = keys.map((k) => all[k] ?? fail(`unknown variant ${k}; known: ${Object.keys(all).join(", ")}`));

  console.log(`node ${process.version}; kube-apiserver on ${plane.server} (started in ${plane.startupMs} ms)`);
  console.log(`${RUNS} runs x ${N} rounds of ${variants.length} interleaved sequential merge patches, ${WARMUP} warm-up rounds each`);
  const spread = await runRounds(variants, { runs: RUNS, n: N, warmup: WARMUP });
  if (args["max-ratio"] !== undefined && all["helper"] !== undefined && variants.includes(all["helper"])) {
    const ratio = spread.median(all["helper"].name);
    failed = ratio > Number(args["max-ratio"]);
    console.log(`\nhelper: ${ratio.toFixed(3)}x, limit ${args["max-ratio"]}x: ${failed ? "FAIL" : "ok"}`);
  }
} finally {
  clients.close();
  raw.close();
  await plane.stop();
}
process.exitCode = failed ? 1 : 0;

function fail(message: string): never {
  throw new Error(message);
}

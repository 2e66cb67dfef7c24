/**
 * The `./k8s` helpers against the raw keep-alive floor, on a real control plane (etcd + kube-apiserver).
 *
 * N sequential merge patches of one pod annotation (alternating values, so each is a real change) per
 * variant, interleaved in rounds (one call of each variant per round, in a shuffled order) so machine
 * load hits all alike, after a warm-up, repeated `--runs` times. Variants (see `k8s-variants.ts`):
 * floor (raw keep-alive `node:https`, same CA and token); `patchAnnotations` and the same client-node
 * API via `createClients`; the honest peer, stock client-node with `KubeConfig`
 * authentication and one shared keep-alive agent on its own transport, as a careful user writes it
 * (`careful-client.ts`); stock `kc.makeApiClient(CoreV1Api)`; and, to split client-node's own cost
 * from ours, two rows on the floor's agent and token: client-node's HTTP layer alone
 * (`IsomorphicFetchHttpLibrary`, i.e. node-fetch) and its typed `CoreV1Api` with a constant
 * authentication (no `KubeConfig`): the least any client-node typed call costs.
 * Ratios are to the first variant listed (the floor unless `--only` says otherwise); `cpu us` is this
 * process's CPU time per call (user + system), which the server's share of the machine does not blur.
 * Prints each run and the spread over the runs, and writes the `k8s` section of BENCHMARKS.md.
 *
 * Run: npm run bench:k8s [-- --runs 5 --n 400 --warmup 30 --only floor,helper --max-ratio 1.1]
 * (`--max-ratio`: exit 1 when the helper's median p50 ratio over the runs exceeds it.)
 * Profile: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/k8s.bench.ts --only helper --runs 1 --n 3000
 */
import { parseArgs } from "node:util";
import { CoreV1Api } from "@kubernetes/client-node";
import { createClients } from "../src/k8s/index.js";
import { KUBERNETES_VERSION, startControlPlane } from "../src/testing/index.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { carefulClient } from "./careful-client.js";
import { gainSplit } from "./k8s-gain.js";
import { k8sVariants, TARGET } from "./k8s-variants.js";
import { median } from "./measure-async.js";
import { rawPatcher } from "./raw-patch.js";
import type { RunFigures } from "./report-table.js";
import { runRounds } from "./run-rounds.js";
import { clientNodeVersion, loadLine, runLine, spread } from "./run-info.js";

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
const clients = {
  cocoon: createClients(plane.kubeConfig),
  // Stops the control plane when the peer cannot be built, as the finally below does for the rest.
  careful: await carefulClient(plane.kubeConfig).catch(async (error: unknown) => {
    await plane.stop();
    throw error;
  }),
};
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

  const versions = `kube-apiserver ${KUBERNETES_VERSION}; client-node ${clientNodeVersion()}`;
  const rounds = `${RUNS} runs x ${N} rounds of ${variants.length} interleaved sequential merge patches, ${WARMUP} warm-up rounds each`;
  console.log(`${runLine(versions)}\nkube-apiserver on ${plane.server} (started in ${plane.startupMs} ms)\n${rounds}`);
  const spreadOverRuns = await runRounds(variants, { runs: RUNS, n: N, warmup: WARMUP });
  const nameOf = (key: string): string => all[key]?.name ?? key;
  const split = gainSplit(spreadOverRuns.figures(), {
    stock: nameOf("stock"),
    peer: nameOf("careful"),
    cocoon: nameOf("direct"),
  });
  if (split !== undefined) console.log(`\n${split}`);
  writeBenchmarkSection(
    "k8s",
    "Kubernetes client: patches against a raw keep-alive floor",
    k8sSection(spreadOverRuns.figures(), versions, rounds, split),
  );
  if (args["max-ratio"] !== undefined && all["helper"] !== undefined && variants.includes(all["helper"])) {
    const ratio = spreadOverRuns.median(all["helper"].name);
    failed = ratio > Number(args["max-ratio"]);
    console.log(`\nhelper: ${ratio.toFixed(3)}x, limit ${args["max-ratio"]}x: ${failed ? "FAIL" : "ok"}`);
  }
} finally {
  clients.cocoon.close();
  clients.careful.close();
  raw.close();
  await plane.stop();
}
process.exitCode = failed ? 1 : 0;

function fail(message: string): never {
  throw new Error(message);
}

function k8sSection(figures: readonly RunFigures[], versions: string, rounds: string, split: string | undefined): string {
  const only = args.only === undefined ? "" : ` --only ${args.only}`;
  return `Merge patches of one pod annotation on a local kube-apiserver, each variant checked to leave its value
in the server's copy. Reproduce with:

\`\`\`sh
npm run bench:k8s -- --runs ${RUNS} --n ${N} --warmup ${WARMUP}${only}
\`\`\`

${runLine(versions)}
${rounds}; the ratio is a run's p50 over the first row's, median [min–max] over the runs. ${loadLine()}

| variant | p50 / ${figures[0]?.name ?? "first"} | p50 ms (median over the runs) |
|---|---|---|
${figures.map((f) => `| ${f.name} | ${spread(f.ratios)} | ${median(f.p50Ms).toFixed(3)} |`).join("\n")}
${split === undefined ? "" : `\n${split}\n`}
The [peer] row is stock client-node on its own transport (node-fetch), each request authenticated by the
\`KubeConfig\` and sent on one keep-alive agent built once with its TLS settings (\`bench/careful-client.ts\`):
what a user who knows client-node 1.x opens a connection per request writes without this library.
\`createClients\` also rebuilds that agent when the kubeconfig's TLS or proxy settings change.

In 0.1 \`createClients\` could also send through a hand-written \`node:https\` transport
(\`transport: "node"\`, now ignored). Its last measurement (2026-12-01, 5 runs of 400 rounds, 2-core Xeon,
Node 24.22.3, client-node 1.4.0): 1.06× of the floor, where client-node's own library measured 1.11× and
stock client-node 2.54×; sharing the agent was 97% of the gain, the transport 4%. It was dropped because it sent no
\`User-Agent\`, followed no redirect, failed with other errors than client-node's and could not run on
client-node 2.
`;
}

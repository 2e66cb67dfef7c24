/**
 * The typed pod watch against client-node's own informer, on a real control plane (etcd + kube-apiserver).
 *
 * For each pod count N: N operator-built main pods in one namespace; then, per round and per
 * variant (shuffled within the round), the variant starts on them and the bench reads the time to
 * the first full list, the heap it holds per pod after a full GC, and then, while the server
 * deletes every pod (deletecollection in batches: 2 events per pod, a deletion timestamp then the
 * removal), the events per second it sees and this process's CPU per event. The pods are created
 * again before the next measurement. Ratios are a round's figure over the informer's in the same
 * round (for events, time per event), median [min–max] over the rounds; ≤ 1.1 is the goal, and
 * per-pod figures equal across counts mean cost linear in the count.
 *
 * Each variant first runs once, unmeasured, on `--warmup` pods, so that loading and compiling its
 * code (zod and the schemas, on the typed side) is not counted against the first measurement.
 *
 * Run: npm run bench:watch [-- --counts 10000,50000 --rounds 3 --warmup 500 --only informer,typed --write]
 * (`--write`: put the figures in BENCHMARKS.md; do it only on a quiet machine.)
 */
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import { createClients } from "../src/k8s/index.js";
import { KUBERNETES_VERSION, startControlPlane } from "../src/testing/index.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { median } from "./measure-async.js";
import { clientNodeVersion, loadLine, runLine, spread } from "./run-info.js";
import { createPods, deleteAllPods } from "./watch-pods.js";
import { WATCHER_VARIANTS, type WatcherVariant } from "./watch-variants.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
v8.setFlagsFromString("--no-expose-gc");

const { values: args } = parseArgs({
  options: {
    counts: { type: "string", default: "10000,50000" },
    rounds: { type: "string", default: "3" },
    only: { type: "string" },
    warmup: { type: "string", default: "500" },
    write: { type: "boolean", default: false },
  },
});
const COUNTS = args.counts.split(",").map(Number);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
const variants = (args.only?.split(",") ?? WATCHER_VARIANTS.map((v) => v.key)).map(
  (key) =>
    WATCHER_VARIANTS.find((v) => v.key === key) ?? fail(`unknown variant ${key}; known: ${WATCHER_VARIANTS.map((v) => v.key).join(", ")}`),
);
const NAMESPACE = "bench-watch";

/** One measurement of one variant. */
interface Figures {
  listMs: number;
  heapPerPod: number;
  eventsPerS: number;
  cpuUsPerEvent: number;
}

const used = (): number => v8.getHeapStatistics().used_heap_size;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Every measurement creates and deletes N pods: etcd's history grows by about 3 revisions per pod each
// time. The API server compacts it every minute (default 5), so freed pages are reused, under an 8 GiB
// quota (default 2 GiB, which the 50,000-pod rounds passed: "mvcc: database space exceeded").
const plane = await startControlPlane({
  installCRDs: false,
  extraEtcdFlags: ["--quota-backend-bytes=8589934592"],
  extraApiServerFlags: ["--etcd-compaction-interval=1m"],
});
const admin = createClients(plane.kubeConfig);
const results = new Map<number, Map<string, Figures[]>>();
try {
  await admin.core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  const versions = `kube-apiserver ${KUBERNETES_VERSION}; client-node ${clientNodeVersion()}`;
  console.log(`${runLine(versions)}\nkube-apiserver on ${plane.server} (started in ${plane.startupMs} ms)`);
  // Loads and compiles each variant's code (zod and the schemas on the typed side) before anything is measured.
  for (const variant of variants) {
    await createPods(admin, NAMESPACE, 0, WARMUP);
    await measure(variant, WARMUP);
  }
  console.log(`warmed up: each variant once on ${WARMUP} pods`);
  for (const count of COUNTS) {
    const byVariant = new Map<string, Figures[]>(variants.map((v) => [v.key, []]));
    results.set(count, byVariant);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const variant of shuffled(variants, round)) {
        await createPods(admin, NAMESPACE, 0, count);
        await settle(1_000);
        const figures = await measure(variant, count);
        byVariant.get(variant.key)?.push(figures);
        console.log(
          `N=${count} round ${round} ${variant.name.padEnd(38)} list ${figures.listMs.toFixed(0)} ms, ` +
            `heap ${(figures.heapPerPod / 1024).toFixed(2)} KB/pod, ${figures.eventsPerS.toFixed(0)} events/s, ${figures.cpuUsPerEvent.toFixed(1)} µs CPU/event`,
        );
      }
    }
  }
  const section = report(versions);
  console.log(`\n${section}`);
  if (args.write) writeBenchmarkSection("watch", "Typed watch against client-node's informer", section);
} finally {
  admin.close();
  await plane.stop();
}

/** Starts `variant` on `count` pods, reads list time and heap, then has the server delete them all and reads the event rate. */
async function measure(variant: WatcherVariant, count: number): Promise<Figures> {
  gc();
  const before = used();
  const started = performance.now();
  const watcher = variant.start(plane.kubeConfig, NAMESPACE, count);
  await watcher.listed;
  const listMs = performance.now() - started;
  gc();
  const heapPerPod = (used() - before) / count;
  await settle(500); // the watch request is answered
  const cpu = process.cpuUsage();
  const deleting = performance.now();
  await deleteAllPods(plane.connection, NAMESPACE);
  while (watcher.deletions() < count) await settle(5);
  const seconds = (performance.now() - deleting) / 1000;
  const spent = process.cpuUsage(cpu);
  const events = watcher.changes();
  await watcher.stop();
  return { listMs, heapPerPod, eventsPerS: events / seconds, cpuUsPerEvent: (spent.user + spent.system) / events };
}

/** `items` in a fixed order per round, rotated so that each leads once in turn. */
function shuffled<T>(items: readonly T[], round: number): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function report(versions: string): string {
  const base = variants[0]?.key ?? "";
  const ratios = (count: number, key: string, pick: (f: Figures) => number): number[] => {
    const own = results.get(count)?.get(key) ?? [];
    const theirs = results.get(count)?.get(base) ?? [];
    return own.map((f, i) => pick(f) / pick(theirs[i] ?? f));
  };
  const med = (count: number, key: string, pick: (f: Figures) => number) => median((results.get(count)?.get(key) ?? []).map(pick));
  const rows = COUNTS.flatMap((count) =>
    variants.map((v) => {
      const cells = [
        `${(med(count, v.key, (f) => f.listMs) / (count / 1000)).toFixed(1)} ms`,
        spread(ratios(count, v.key, (f) => f.listMs)),
        `${(med(count, v.key, (f) => f.heapPerPod) / 1024).toFixed(2)} KB`,
        spread(ratios(count, v.key, (f) => f.heapPerPod)),
        med(count, v.key, (f) => f.eventsPerS).toFixed(0),
        spread(ratios(count, v.key, (f) => 1 / f.eventsPerS)),
        `${med(count, v.key, (f) => f.cpuUsPerEvent).toFixed(1)} µs`,
        spread(ratios(count, v.key, (f) => f.cpuUsPerEvent)),
      ];
      return `| ${count} | ${v.name} | ${cells.join(" | ")} |`;
    }),
  );
  return `The typed pod watch (\`watchCocoonPods\`) against client-node's own informer (\`makeInformer\` over
\`listNamespacedPod\`, as client-node's README writes one), on N operator-built main pods of one
namespace of a local kube-apiserver. Reproduce with:

\`\`\`sh
npm run bench:watch -- --counts ${COUNTS.join(",")} --rounds ${ROUNDS}${WARMUP === 500 ? "" : ` --warmup ${WARMUP}`}${args.only === undefined ? "" : ` --only ${args.only}`} --write
\`\`\`

${runLine(versions)}
${ROUNDS} rounds per count, the variants in turn. ${loadLine()}

| N | variant | list, per 1000 pods | ratio | heap per pod | ratio | events/s | ratio (time per event) | CPU per event | ratio |
|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Each variant first runs once, unmeasured, on ${WARMUP} pods, so that loading and compiling its code
(zod and the schemas on the typed side) counts against no measurement. Then, for each N and each
round, every variant in turn starts on the N pods and the bench reads:

- **list, per 1000 pods**: from the start to the first full list delivered (the typed watch's
  \`synced\` event; the informer's N-th \`add\`), over N / 1000.
- **heap per pod**: V8's used heap after a full collection once the list is in, less the same
  before the start, over N: the watcher's cache and everything it keeps.
- **events/s**: the server then deletes every pod (deletecollection in batches, two events per
  pod: the deletion timestamp, then the removal); change events seen over the seconds from the
  first delete request to the last deletion seen.
- **CPU per event**: this process's CPU time (user + system) over that window, per event.

Rows: the informer (the base of every ratio), \`watchCocoonPods\` as it comes (one list request,
as the informer lists), and \`watchCocoonPods\` with list pages of 500 (\`pageSize: 500\`). A ratio
is a round's figure over the informer's in the same round (for events, time per event), median
[min–max] over the rounds; the goal is ≤ 1.1. Per-pod figures that stay equal from one N to the
next mean cost linear in the count. The pods are created again between measurements, unmeasured.
`;
}

function fail(message: string): never {
  throw new Error(message);
}

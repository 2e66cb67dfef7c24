// The real Go cocoon-operator's pods (test/fixtures/go/operator/pods.json, commit 6151b05): every
// case pod, every pod the reconciler paths create, and the helpers, byte for byte through
// marshalPodGoJSON.
import { describe, expect, it } from "vitest";
import { readGoText } from "../../internal/go-vectors.test-util.js";
import { preferredHostnameAffinity, requiredHostnameAffinity } from "../affinity.js";
import { marshalGoJSON } from "../../internal/go/index.js";
import { markRestoreFromHibernate } from "../hibernate.js";
import { buildAgentPod, buildMainPod, buildSubAgentPod } from "./agent-pod.js";
import { podSpecMatchesAgent, podSpecMatchesToolbox } from "./drift.js";
import { newManagedPod } from "./managed-pod.js";
import { marshalPodGoJSON } from "./pod-go-json.js";
import { podResources } from "./resources.js";
import { applyStorageRequest } from "./storage-request.js";
import { buildToolboxPod, toolboxPodName } from "./toolbox-pod.js";
import type { CocoonPod, CocoonSetLike, PodResources, ResourcesLike } from "./types.js";
import { buildWakePod } from "./wake-pod.js";

/** JSON with every integer past 2^53 read exactly, as a bigint (Go's int64 generations). */
function parseExact<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? "")
      ? BigInt(context?.source ?? "0")
      : value,
  ) as T;
}

interface PodEntry {
  kind: "main" | "sub-agent" | "toolbox" | "builder-only" | "wake";
  args: { slot?: number; mainVMName?: string; bindNodeName?: string; toolboxIndex?: number };
  error: string | null;
  podJSON: string;
  driftCheckOnBuiltPod: { function: string; result: boolean };
}
interface Case {
  id: string;
  input: CocoonSetLike;
  cocoonSetJSON: string;
  pods: PodEntry[];
}
interface Hibernation {
  spec: { podRef: { name: string } };
  status: { phase: string };
}
interface Path {
  id: string;
  function: string;
  cocoonSetJSON: string;
  cocoonHibernationsInCluster: Hibernation[];
  registryHibernateTagsPresent: string[];
  extraArgs?: { mainNodeName: string; mainVMName: string };
  createdPods: { podJSON: string }[];
}
interface Vectors {
  cases: Case[];
  paths: Path[];
  affinity: { nodeName: string; hostnameAffinityJSON: string; preferredHostnameAffinityJSON: string }[];
  toolboxPodName: { csName: string; tbName: string; result: string }[];
  newManagedPod: { id: string; cocoonSetJSON: string; podName: string; role: string; slotLabel: string; podJSON: string }[];
  applyStorageRequest: { id: string; resourcesBefore: ResourcesLike; storage: string | number | null; resourcesAfterJSON: string }[];
}

const vectors = parseExact<Vectors>(readGoText("operator/pods.json"));

function build(set: CocoonSetLike, entry: PodEntry): CocoonPod {
  const { slot = 0, mainVMName, bindNodeName, toolboxIndex } = entry.args;
  if (entry.kind === "wake") return buildWakePod(set);
  if (entry.kind === "toolbox") return buildToolboxPod(set, set.spec?.toolboxes?.[toolboxIndex ?? -1] ?? { name: "missing" });
  return buildAgentPod(set, slot, { mainVMName, bindNodeName });
}

function drift(pod: CocoonPod, set: CocoonSetLike, entry: PodEntry): boolean {
  const toolbox = entry.kind === "toolbox" ? set.spec?.toolboxes?.[entry.args.toolboxIndex ?? -1] : undefined;
  return toolbox ? podSpecMatchesToolbox(pod, set, toolbox) : podSpecMatchesAgent(pod, set, entry.args.slot ?? 0);
}

describe("the Go operator's pods", () => {
  it("holds the counts the README states", () => {
    const kinds = vectors.cases.flatMap((c) => c.pods.map((p) => p.kind));
    expect(vectors.cases).toHaveLength(54);
    expect(kinds).toHaveLength(133);
    expect(["main", "sub-agent", "toolbox", "builder-only", "wake"].map((k) => kinds.filter((x) => x === k).length)).toEqual([
      54, 11, 13, 1, 54,
    ]);
    expect(vectors.paths.flatMap((p) => p.createdPods)).toHaveLength(17);
  });

  describe.each(vectors.cases)("case $id", (c) => {
    it.each(c.pods.map((entry, i) => ({ entry, name: `${String(i)} ${entry.kind}` })))(
      "$name: Go's bytes, from the decoded set and the raw input",
      ({ entry }) => {
        expect(entry.error).toBeNull();
        const decoded = parseExact<CocoonSetLike>(c.cocoonSetJSON);
        const pod = build(decoded, entry);
        expect(marshalPodGoJSON(pod)).toBe(entry.podJSON);
        expect(pod).toEqual(JSON.parse(entry.podJSON));
        expect(marshalPodGoJSON(build(structuredClone(c.input), entry))).toBe(entry.podJSON);
        expect(decoded).toEqual(parseExact(c.cocoonSetJSON)); // the set is never changed
        expect(drift(pod, parseExact(c.cocoonSetJSON), entry)).toBe(entry.driftCheckOnBuiltPod.result);
      },
    );
  });
});

/** The operator's restore policy on these paths, as its composition strings state it. */
function restoreIntent(path: Path, podName: string): boolean {
  const tagged = path.registryHibernateTagsPresent.length > 0;
  switch (path.function) {
    case "Reconciler.reconcileSuspend":
    case "Reconciler.reconcileMigration":
      return tagged;
    default:
      return (
        path.cocoonHibernationsInCluster.some((h) => h.spec.podRef.name === podName && ["Hibernated", "Waking"].includes(h.status.phase)) &&
        tagged
      );
  }
}

function composed(path: Path): CocoonPod[] {
  const set = parseExact<CocoonSetLike>(path.cocoonSetJSON);
  const mark = (pod: CocoonPod): CocoonPod => {
    const vm = pod.metadata.annotations["vm.cocoonstack.io/name"] ?? "";
    if (restoreIntent(path, pod.metadata.name) && path.registryHibernateTagsPresent.includes(`${vm}:hibernate`))
      markRestoreFromHibernate(pod);
    return pod;
  };
  switch (path.function) {
    case "Reconciler.reconcileWake":
      return [buildWakePod(set)];
    case "Reconciler.ensureSubAgents": {
      const replicas = (set.spec?.agent as { replicas?: number } | undefined)?.replicas ?? 0;
      const { mainVMName = "", mainNodeName = "" } = path.extraArgs ?? {};
      return Array.from({ length: replicas }, (_, i) => mark(buildSubAgentPod(set, i + 1, mainVMName, mainNodeName)));
    }
    case "Reconciler.ensureToolboxes":
      return (set.spec?.toolboxes ?? []).map((tb) => mark(buildToolboxPod(set, tb)));
    default:
      return [mark(buildMainPod(set))];
  }
}

describe("the pods the Go reconciler paths create", () => {
  it.each(vectors.paths.filter((p) => p.createdPods.length > 0))("$id", (path) => {
    expect(composed(path).map(marshalPodGoJSON)).toEqual(path.createdPods.map((p) => p.podJSON));
  });
});

describe("the Go operator's pod helpers", () => {
  it.each(vectors.affinity.filter((a) => a.nodeName !== ""))("hostname affinities for $nodeName", (a) => {
    expect(marshalGoJSON(requiredHostnameAffinity(a.nodeName))).toBe(a.hostnameAffinityJSON);
    expect(marshalGoJSON(preferredHostnameAffinity(a.nodeName))).toBe(a.preferredHostnameAffinityJSON);
  });

  it("toolbox pod names", () => {
    expect(vectors.toolboxPodName.map((v) => toolboxPodName(v.csName, v.tbName))).toEqual(vectors.toolboxPodName.map((v) => v.result));
  });

  it.each(vectors.newManagedPod)("newManagedPod $id", (v) => {
    expect(marshalPodGoJSON(newManagedPod(parseExact(v.cocoonSetJSON), v.podName, v.role, v.slotLabel))).toBe(v.podJSON);
  });

  it.each(vectors.applyStorageRequest)("applyStorageRequest $id", (v) => {
    const before = podResources(v.resourcesBefore);
    const after: PodResources = applyStorageRequest(before, v.storage);
    const sorted = (list?: Record<string, string>) => list && new Map(Object.entries(list).sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(marshalGoJSON({ limits: sorted(after.limits), requests: sorted(after.requests), claims: after.claims })).toBe(
      v.resourcesAfterJSON,
    );
    expect(podResources(v.resourcesBefore)).toEqual(before); // the input is never changed
  });
});

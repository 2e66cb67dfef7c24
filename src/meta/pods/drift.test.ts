import { describe, expect, it } from "vitest";
import { Annotation, Label } from "../keys.js";
import { buildMainPod, buildSubAgentPod } from "./agent-pod.js";
import { podSpecMatchesAgent, podSpecMatchesToolbox, type LivePodLike } from "./drift.js";
import { buildToolboxPod } from "./toolbox-pod.js";
import type { CocoonPod, CocoonSetLike, CocoonSetSpecLike, ToolboxLike } from "./types.js";

const set = (): CocoonSetLike & { spec: CocoonSetSpecLike } => ({
  metadata: { name: "demo", namespace: "ns", uid: "u-1", generation: 3 },
  spec: {
    snapshotCompatibilityClass: "icelake-v2",
    agent: {
      image: "img",
      storage: "10Gi",
      resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } },
      envFrom: [{ configMapRef: { name: "c" } }],
      serviceAccountName: "sa",
    },
  },
});
const tbStatic: ToolboxLike = { name: "vm", mode: "static", staticIP: "10.0.0.9", staticVMID: "vm-9", vncPort: 5900 };

/** A deep copy of a built pod to edit, as a live pod read back would be. */
const limitsOf = (p: CocoonPod): Record<string, string> => (p.spec.containers[0].resources.limits ??= {});
const requestsOf = (p: CocoonPod): Record<string, string> => (p.spec.containers[0].resources.requests ??= {});
const live = (pod: CocoonPod): LivePodLike & CocoonPod => structuredClone(pod);

describe("podSpecMatchesAgent", () => {
  it("matches the pod it builds, and again after a sub-agent keeps its fork source", () => {
    expect(podSpecMatchesAgent(buildMainPod(set()), set(), 0)).toBe(true);
    expect(podSpecMatchesAgent(buildSubAgentPod(set(), 2, "vk-ns-demo-0", "n1"), set(), 2)).toBe(true);
  });

  it("drifts on each compared field", () => {
    const edits: [string, (pod: LivePodLike & CocoonPod) => void][] = [
      ["image annotation", (p) => void (p.metadata.annotations[Annotation.Image] = "other")],
      ["a fork source on the main", (p) => void (p.metadata.annotations[Annotation.ForkFrom] = "vk-x")],
      ["cpu limit", (p) => void (limitsOf(p).cpu = "2")],
      ["memory request", (p) => void (requestsOf(p).memory = "2Gi")],
      ["service account", (p) => void (p.spec.serviceAccountName = "default")],
      ["envFrom", (p) => void (p.spec.containers[0].envFrom = [{ configMapRef: { name: "c", optional: false } }])],
      ["node pool", (p) => void (p.spec.nodeSelector[Label.NodePool] = "gpu")],
      [
        "snapshot class",
        (p) => {
          delete p.spec.nodeSelector[Label.SnapshotCompatibilityClass];
        },
      ],
      ["no container", (p) => void ((p.spec as { containers: unknown[] }).containers = [])],
      ["a pod quantity Go could not hold", (p) => void (limitsOf(p).cpu = "one")],
    ];
    for (const [what, edit] of edits) {
      const pod = live(buildMainPod(set()));
      edit(pod);
      expect([what, podSpecMatchesAgent(pod, set(), 0)]).toEqual([what, false]);
    }
  });

  it("compares quantities by value and ignores the storage request", () => {
    const pod = live(buildMainPod(set()));
    pod.spec.containers[0].resources = { requests: { cpu: "0.5", memory: "1073741824" }, limits: { cpu: "1000m", memory: "1024Mi" } };
    expect(podSpecMatchesAgent(pod, set(), 0)).toBe(true);
  });

  it("expects the API server's copy of limits into empty requests", () => {
    const limitsOnly = set();
    limitsOnly.spec.agent.resources = { limits: { cpu: "1", memory: "1Gi" } };
    const built = buildMainPod(limitsOnly);
    expect(podSpecMatchesAgent(built, limitsOnly, 0)).toBe(false); // Go: false on the pod as built
    const stored = live(built);
    stored.spec.containers[0].resources.requests = { cpu: "1", memory: "1Gi", "ephemeral-storage": "10Gi" };
    expect(podSpecMatchesAgent(stored, limitsOnly, 0)).toBe(true);
  });

  it("treats an unset service account as default and an absent envFrom as empty", () => {
    const bare = set();
    delete bare.spec.agent.serviceAccountName;
    bare.spec.agent.envFrom = [];
    const pod = live(buildMainPod(bare));
    pod.spec.serviceAccountName = "default";
    expect(podSpecMatchesAgent(pod, bare, 0)).toBe(true);
  });
});

describe("podSpecMatchesToolbox", () => {
  it("matches the pod it builds and drifts on the static runtime", () => {
    const withTb = { ...set(), spec: { ...set().spec, toolboxes: [tbStatic] } };
    expect(podSpecMatchesToolbox(buildToolboxPod(withTb, tbStatic), withTb, tbStatic)).toBe(true);
    for (const key of [Annotation.VMID, Annotation.IP, Annotation.VNCPort]) {
      const pod = live(buildToolboxPod(withTb, tbStatic));
      pod.metadata.annotations[key] = "9";
      expect([key, podSpecMatchesToolbox(pod, withTb, tbStatic)]).toEqual([key, false]);
    }
    expect(podSpecMatchesToolbox(buildToolboxPod(withTb, tbStatic), withTb, { ...tbStatic, image: "new" })).toBe(false);
  });
});

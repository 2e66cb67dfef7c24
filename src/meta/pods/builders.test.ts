import { describe, expect, it } from "vitest";
import { Annotation } from "../keys.js";
import { buildAgentPod, buildMainPod, buildSubAgentPod } from "./agent-pod.js";
import { marshalPodGoJSON } from "./pod-go-json.js";
import { buildToolboxPod } from "./toolbox-pod.js";
import type { CocoonPod, CocoonSetLike, CocoonSetSpecLike } from "./types.js";
import { buildWakePod } from "./wake-pod.js";

/** The same object with its keys in reverse order. */
const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const set = (): CocoonSetLike & { spec: CocoonSetSpecLike } => ({
  metadata: { name: "demo", namespace: "ns", uid: "u-1", generation: 3, annotations: { [Annotation.HibernatedOnNode]: "node-h" } },
  spec: {
    nodeName: "node-k",
    agent: {
      image: "img",
      storage: "10Gi",
      resources: { requests: { cpu: "1" }, limits: { cpu: "2" } },
      envFrom: [{ secretRef: { name: "s" } }],
    },
    toolboxes: [{ name: "db", image: "pg", storage: "5Gi", resources: { limits: { memory: "1Gi" } } }],
  },
});

describe("the pod builders", () => {
  it("never write into the set (Go writes ephemeral-storage into its resource maps)", () => {
    const frozen = deepFreeze(set());
    const pods = [
      buildMainPod(frozen),
      buildSubAgentPod(frozen, 1, "vk-ns-demo-0", "n1"),
      buildToolboxPod(frozen, frozen.spec.toolboxes?.[0] ?? { name: "x" }),
      buildWakePod(frozen),
    ];
    expect(frozen).toEqual(set());
    expect(pods[0]?.spec.containers[0].resources).toEqual({
      limits: { cpu: "2", "ephemeral-storage": "10Gi" },
      requests: { cpu: "1", "ephemeral-storage": "10Gi" },
    });
    pods[0]?.spec.containers[0].envFrom?.push({ prefix: "x" });
    expect(buildMainPod(frozen).spec.containers[0].envFrom).toEqual([{ secretRef: { name: "s" } }]);
  });

  it("refuses a slot Go's int32 cannot hold, and slot 0 as a sub-agent", () => {
    for (const slot of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expect(() => buildAgentPod(set(), slot)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    }
    expect(buildAgentPod(set(), 2 ** 31 - 1).metadata.name).toBe("demo-2147483647");
    expect(() => buildSubAgentPod(set(), 0, "vk-ns-demo-0")).toThrow("sub-agent slot 0 is the main agent: use buildMainPod");
  });

  it("gives the wake pod the preference only when no pin gave it an affinity", () => {
    expect(buildWakePod(set()).spec.affinity).toEqual(buildMainPod(set()).spec.affinity);
    const unpinned = set();
    delete unpinned.spec.nodeName;
    expect(buildWakePod(unpinned).spec.affinity).toEqual({
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, preference: { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-h"] }] } },
        ],
      },
    });
    expect(buildWakePod(unpinned).metadata.annotations[Annotation.RestoreFromHibernate]).toBe("true");
  });

  it("refuses a bad quantity in the set with ERR_INVALID_QUANTITY", () => {
    const bad = set();
    bad.spec.agent.resources = { limits: { cpu: "lots" } };
    expect(() => buildMainPod(bad)).toThrow(expect.objectContaining({ code: "ERR_INVALID_QUANTITY" }));
  });
});

describe("marshalPodGoJSON", () => {
  it("writes Go's field order whatever the key order, and refuses fields a built pod does not hold", () => {
    const pod = buildMainPod(set());
    const reordered: CocoonPod = { status: pod.status, spec: reversed(pod.spec), metadata: reversed(pod.metadata) };
    expect(marshalPodGoJSON(reordered)).toBe(marshalPodGoJSON(pod));
    expect(marshalPodGoJSON(pod)).toMatch(/^\{"metadata":\{"name":"demo-0","namespace":"ns",.*\},"spec":\{"containers":.*"status":\{\}\}$/);
    const withVolumes: CocoonPod = { ...pod, spec: { ...pod.spec, ...{ volumes: [] } } };
    expect(() => marshalPodGoJSON(withVolumes)).toThrow(
      "pod.spec.volumes cannot be written as a Go corev1.Pod field: not a field a built pod holds",
    );
  });

  it("keeps a false pointer and drops empty strings and maps", () => {
    const pod = buildMainPod({
      metadata: { name: "d" },
      spec: { agent: { image: "i", envFrom: [{ configMapRef: { name: "", optional: false } }] } },
    });
    expect(marshalPodGoJSON(pod)).toContain('"envFrom":[{"configMapRef":{"optional":false}}],"resources":{}');
    expect(marshalPodGoJSON(pod)).toContain('{"metadata":{"name":"d-0","labels"');
  });
});

describe("a set without a spec", () => {
  it("builds from Go's zero spec: no image, default pool", () => {
    const pod = buildMainPod({ metadata: { name: "bare", namespace: "ns", uid: "u" } });
    expect(pod.metadata.annotations).toEqual({
      "cocoonset.cocoonstack.io/generation": "0",
      "cocoonset.cocoonstack.io/managed": "true",
      "cocoonset.cocoonstack.io/mode": "clone",
      "cocoonset.cocoonstack.io/os": "linux",
      "cocoonset.cocoonstack.io/snapshot-policy": "always",
      "vm.cocoonstack.io/backend": "cloud-hypervisor",
      "vm.cocoonstack.io/name": "vk-ns-bare-0",
    });
    expect(pod.spec.nodeSelector).toEqual({ "cocoonstack.io/pool": "default" });
  });
});

describe("hostile resource names", () => {
  it("keeps a resource named __proto__ as a key, as Go's map does", () => {
    const resources = JSON.parse('{"limits":{"__proto__":"1","cpu":"2"}}') as { limits: Record<string, string> };
    const pod = buildMainPod({ metadata: { name: "d" }, spec: { agent: { image: "i", resources } } });
    expect(Object.keys(pod.spec.containers[0].resources.limits ?? {})).toEqual(["__proto__", "cpu"]);
    expect(marshalPodGoJSON(pod)).toContain('"resources":{"limits":{"__proto__":"1","cpu":"2"}}');
    expect(Object.getPrototypeOf(pod.spec.containers[0].resources.limits)).toBe(Object.prototype);
  });
});

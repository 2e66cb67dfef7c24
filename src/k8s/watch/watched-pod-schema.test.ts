import { describe, expect, it } from "vitest";
import { buildMainPod } from "../../meta/index.js";
import { WatchedPodSchema } from "./watched-pod-schema.js";

const served = (pod: object) => JSON.parse(JSON.stringify(pod)) as Record<string, unknown>;
const set = { metadata: { name: "demo", namespace: "prod", uid: "u-1", generation: 1 }, spec: { agent: { image: "agent:1" } } };
const meta = { uid: "p-1", resourceVersion: "7", creationTimestamp: "2026-01-02T03:04:05Z" };

describe("WatchedPodSchema", () => {
  it("reads a pod the operator built, as listed (no type meta): type meta filled in, every other field kept", () => {
    const pod = served(buildMainPod(set));
    const listed = { ...pod, metadata: { ...(pod["metadata"] as object), ...meta }, status: { phase: "Pending", qosClass: "BestEffort" } };
    const parsed = WatchedPodSchema.parse(listed);
    expect([
      parsed.apiVersion,
      parsed.kind,
      parsed.metadata.name,
      parsed.spec.terminationGracePeriodSeconds,
      parsed.status?.["qosClass"],
    ]).toEqual(["v1", "Pod", "demo-0", 1, "BestEffort"]);
  });

  it("refuses a pod without the virtual-kubelet toleration, and a label that is not a string", () => {
    const pod = served(buildMainPod(set));
    const untolerated = { ...pod, metadata: { ...(pod["metadata"] as object), ...meta }, spec: { containers: [{ name: "agent" }] } };
    expect(WatchedPodSchema.safeParse(untolerated).error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["spec.tolerations", "a cocoon pod tolerates virtual-kubelet.io/provider"],
    ]);
    const badLabel = { ...pod, metadata: { ...(pod["metadata"] as object), ...meta, labels: { n: 1 } } };
    expect(WatchedPodSchema.safeParse(badLabel).error?.issues.map((i) => i.path.join("."))).toEqual(["metadata.labels.n"]);
  });
});

import { describe, expect, it } from "vitest";
import type { PodLike } from "./objects.js";
import { isContainerRunning, isPodReady, isPodTerminal, podKey, podNodePool } from "./pod.js";

// Skipped Go case: a newer stored pod_test.go tests VMLive, which cocoon-common v0.3.0 does not have.
const POOL = "cocoonstack.io/pool";

describe("isPodReady (Go TestIsPodReady)", () => {
  const withConditions = (...conditions: { type?: string; status?: string }[]): PodLike => ({ status: { conditions } });

  it.each<[string, PodLike, boolean]>([
    ["nil", {}, false],
    ["no conditions", { status: {} }, false],
    ["ready true", withConditions({ type: "Ready", status: "True" }), true],
    ["ready false", withConditions({ type: "Ready", status: "False" }), false],
    ["other condition true", withConditions({ type: "Initialized", status: "True" }), false],
    ["ready unknown", withConditions({ type: "Ready", status: "Unknown" }), false],
    ["status is case-sensitive", withConditions({ type: "Ready", status: "true" }), false],
    ["type is case-sensitive", withConditions({ type: "ready", status: "True" }), false],
    ["ready among others", withConditions({ type: "PodScheduled", status: "True" }, { type: "Ready", status: "True" }), true],
  ])("%s", (_name, pod, want) => {
    expect(isPodReady(pod)).toBe(want);
  });
});

describe("isPodTerminal (Go TestIsPodTerminal)", () => {
  it.each<[string, PodLike, boolean]>([
    ["nil pod", {}, false],
    ["PodFailed is terminal", { status: { phase: "Failed" } }, true],
    ["PodSucceeded is not terminal", { status: { phase: "Succeeded" } }, false],
    ["PodRunning is not terminal", { status: { phase: "Running" } }, false],
    ["PodPending is not terminal", { status: { phase: "Pending" } }, false],
    ["phase is case-sensitive", { status: { phase: "failed" } }, false],
  ])("%s", (_name, pod, want) => {
    expect(isPodTerminal(pod)).toBe(want);
  });
});

describe("isContainerRunning (Go TestIsContainerRunning)", () => {
  it.each<[string, PodLike, boolean]>([
    ["nil pod", {}, false],
    ["running container detected", { status: { containerStatuses: [{ state: { running: {} } }] } }, true],
    ["waiting container is not running", { status: { containerStatuses: [{ state: { waiting: {} } as { running?: unknown } }] } }, false],
    ["running: {} counts", { status: { containerStatuses: [{ state: { running: {} } }] } }, true],
    [
      "running with a start time counts",
      { status: { containerStatuses: [{ state: { running: { startedAt: "2026-08-12T10:00:00Z" } } }] } },
      true,
    ],
    ["running: null does not count", { status: { containerStatuses: [{ state: { running: null } }] } }, false],
    ["no state", { status: { containerStatuses: [{}] } }, false],
    ["empty statuses", { status: { containerStatuses: [] } }, false],
    ["any of several", { status: { containerStatuses: [{ state: {} }, { state: { running: {} } }] } }, true],
  ])("%s", (_name, pod, want) => {
    expect(isContainerRunning(pod)).toBe(want);
  });

  it("init and ephemeral container statuses are ignored", () => {
    const pod = {
      status: {
        initContainerStatuses: [{ state: { running: {} } }],
        ephemeralContainerStatuses: [{ state: { running: {} } }],
        containerStatuses: [{ state: { waiting: {} } }],
      },
    };
    expect(isContainerRunning(pod as PodLike)).toBe(false);
  });

  it("reads a wire-form (JSON-parsed) pod the same way", () => {
    expect(isContainerRunning(JSON.parse('{"status":{"containerStatuses":[{"state":{"running":{}}}]}}') as PodLike)).toBe(true);
    expect(isContainerRunning(JSON.parse('{"status":{"containerStatuses":[{"state":{"running":null}}]}}') as PodLike)).toBe(false);
  });
});

describe("podKey (Go TestPodKey)", () => {
  it.each([
    ["ns", "demo", "ns/demo"],
    ["", "x", "/x"],
    ["a/b", "c", "a/b/c"],
  ])("podKey(%j, %j) is %j", (namespace, name, want) => {
    expect(podKey(namespace, name)).toBe(want);
  });
});

describe("podNodePool (Go TestPodNodePool)", () => {
  it.each<[string, PodLike, string]>([
    ["nil", {}, "default"],
    ["none set", { metadata: {}, spec: {} }, "default"],
    [
      "nodeSelector wins",
      { spec: { nodeSelector: { [POOL]: "sel" } }, metadata: { labels: { [POOL]: "lab" }, annotations: { [POOL]: "ann" } } },
      "sel",
    ],
    ["labels over annotations", { metadata: { labels: { [POOL]: "lab" }, annotations: { [POOL]: "ann" } } }, "lab"],
    ["annotation fallback", { metadata: { annotations: { [POOL]: "ann" } } }, "ann"],
    // cmp.Or: an explicit empty string at a higher level falls through (go-contract.md §2.3).
    [
      "empty nodeSelector falls through to the label",
      { spec: { nodeSelector: { [POOL]: "" } }, metadata: { labels: { [POOL]: "lab" } } },
      "lab",
    ],
    ["empty label falls through to the annotation", { metadata: { labels: { [POOL]: "" }, annotations: { [POOL]: "ann" } } }, "ann"],
    [
      "all empty falls through to default",
      { spec: { nodeSelector: { [POOL]: "" } }, metadata: { labels: { [POOL]: "" }, annotations: { [POOL]: "" } } },
      "default",
    ],
    [
      "other keys are ignored",
      { spec: { nodeSelector: { "cocoonset.cocoonstack.io/pool": "x" } }, metadata: { labels: { pool: "y" } } },
      "default",
    ],
  ])("%s", (_name, pod, want) => {
    expect(podNodePool(pod)).toBe(want);
  });

  // cocoon-webhook TestPodNodePoolPrecedence, which calls meta.PodNodePool.
  it.each<[string, PodLike, string]>([
    ["default when nothing set", {}, "default"],
    ["annotation", { metadata: { annotations: { [POOL]: "ann" } } }, "ann"],
    ["label beats annotation", { metadata: { labels: { [POOL]: "label" }, annotations: { [POOL]: "ann" } } }, "label"],
    ["nodeSelector beats label", { metadata: { labels: { [POOL]: "label" } }, spec: { nodeSelector: { [POOL]: "selector" } } }, "selector"],
  ])("webhook: %s", (_name, pod, want) => {
    expect(podNodePool(pod)).toBe(want);
  });
});

// Go decodes a JSON null list item to the item type's zero value and reads on; so do we.
describe("pod readers on null list items (Go reads zero values)", () => {
  const pod = (json: string): PodLike => JSON.parse(json) as PodLike;

  it.each<[string, string, boolean]>([
    ["conditions [null]", '{"status":{"conditions":[null]}}', false],
    ["null before a ready condition", '{"status":{"conditions":[null,{"type":"Ready","status":"True"}]}}', true],
    ["conditions null", '{"status":{"conditions":null}}', false],
    ["status null", '{"status":null}', false],
    ["conditions not a list", '{"status":{"conditions":{"type":"Ready","status":"True"}}}', false],
    ["type not a string", '{"status":{"conditions":[{"type":["Ready"],"status":"True"}]}}', false],
  ])("isPodReady: %s", (_name, json, want) => {
    expect(isPodReady(pod(json))).toBe(want);
  });

  it.each<[string, string, boolean]>([
    ["containerStatuses [null]", '{"status":{"containerStatuses":[null]}}', false],
    ["null before a running one", '{"status":{"containerStatuses":[null,{"state":{"running":{}}}]}}', true],
    ["state null", '{"status":{"containerStatuses":[{"state":null}]}}', false],
    ["running null", '{"status":{"containerStatuses":[{"state":{"running":null}}]}}', false],
  ])("isContainerRunning: %s", (_name, json, want) => {
    expect(isContainerRunning(pod(json))).toBe(want);
  });

  it.each<[string, string, string]>([
    [
      "a selector value that is not a string is skipped",
      `{"spec":{"nodeSelector":{"${POOL}":7}},"metadata":{"labels":{"${POOL}":"gpu"}}}`,
      "gpu",
    ],
    ["null maps", '{"spec":{"nodeSelector":null},"metadata":{"labels":null,"annotations":null}}', "default"],
    ["spec null", '{"spec":null}', "default"],
  ])("podNodePool: %s", (_name, json, want) => {
    expect(podNodePool(pod(json))).toBe(want);
  });

  it("isPodTerminal reads a phase that is not a string as empty", () => {
    expect(isPodTerminal(pod('{"status":{"phase":["Failed"]}}'))).toBe(false);
  });

  it("podNodePool ignores a pool key inherited from the prototype", () => {
    const labels = Object.create({ [POOL]: "inherited" }) as Record<string, string>;
    expect(podNodePool({ metadata: { labels } })).toBe("default");
  });
});

import { describe, expect, it } from "vitest";
import { mergeFromBody } from "./merge-from.js";
import type { Target } from "./target.js";

const SET: Target = { kind: "CocoonSet", name: "demo", namespace: "ns" };
const HIBERNATION: Target = { kind: "CocoonHibernation", name: "h", namespace: "ns" };
const POD: Target = { kind: "Pod", name: "p", namespace: "ns" };

const cocoonSet = (extra: Record<string, unknown> = {}) => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "ns", resourceVersion: "7" },
  spec: { agent: { image: "img", replicas: 1 } },
  ...extra,
});

const DELETE = Symbol("delete");
type Edit = readonly [path: string, value: unknown];

/** The body for `before` edited at dotted paths (`DELETE` removes), as `patch` computes it. */
function body(target: Target, before: object, edits: readonly Edit[], resourceVersion?: string): string | undefined {
  const copy = structuredClone(before) as Record<string, unknown>;
  for (const [path, value] of edits) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    let node = copy;
    for (const key of keys) node = (node[key] ??= {}) as Record<string, unknown>;
    if (value === DELETE) delete node[last];
    else node[last] = value;
  }
  return mergeFromBody(target, before, copy, resourceVersion);
}

describe("mergeFromBody: zero values as Go's typed structs hold them", () => {
  it("removes a status field set to its zero value, as Go's omitempty does", () => {
    const before = cocoonSet({ status: { phase: "Running" } });
    expect(body(SET, before, [["status.phase", ""]])).toBe('{"status":{"phase":null}}');
  });

  it("sends nothing for observedGeneration 0 on a set without status (Go sends {})", () => {
    expect(body(SET, cocoonSet(), [["status", { observedGeneration: 0 }]])).toBeUndefined();
  });

  it("sends nothing for an empty annotations map (Go sends {})", () => {
    expect(body(SET, cocoonSet(), [["metadata.annotations", {}]])).toBeUndefined();
  });

  it("writes the always-present status counters as Go does when a status appears", () => {
    expect(body(SET, cocoonSet(), [["status", { phase: "Running" }]])).toBe('{"status":{"phase":"Running"}}');
  });

  it("reads a null condition as Go's zero Condition", () => {
    const before = { ...cocoonSet(), status: { phase: "Running" } };
    expect(body(SET, before, [["status.conditions", [null]]])).toBe(
      '{"status":{"conditions":[{"lastTransitionTime":null,"message":"","reason":"","status":"","type":""}]}}',
    );
  });

  it("compares quantities and times in Go's canonical form", () => {
    const before = cocoonSet({
      status: { conditions: [{ type: "Ready", status: "True", reason: "R", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
    });
    const unchanged = body(SET, before, [
      ["spec.agent.storage", "1Gi"],
      ["status.conditions.0.lastTransitionTime", "2026-01-01T00:00:00.250Z"],
    ]);
    expect(unchanged).toBe('{"spec":{"agent":{"storage":"1Gi"}}}');
    expect(body(SET, { ...before, spec: { agent: { image: "img", storage: "1024Mi" } } }, [["spec.agent.storage", "1Gi"]])).toBeUndefined();
  });

  it("drops the fields a Go struct has no place for", () => {
    expect(body(HIBERNATION, { spec: { podRef: { name: "p" }, desire: "Hibernate" } }, [["spec.extra", 1]])).toBeUndefined();
  });

  it("keeps a value Go could not decode, for the server to refuse", () => {
    expect(body(SET, cocoonSet(), [["spec.agent.replicas", "3"]])).toBe('{"spec":{"agent":{"replicas":"3"}}}');
  });
});

describe("mergeFromBody: Go's bytes", () => {
  it("sorts keys at every level and escapes as encoding/json does", () => {
    const labels = { "9": "<", "10": "\u2028", b: "&", a: "\ud800" };
    expect(body(POD, { metadata: { name: "p" } }, [["metadata.labels", labels]])).toBe(
      '{"metadata":{"labels":{"10":"\\u2028","9":"\\u003c","a":"\ufffd","b":"\\u0026"}}}',
    );
  });

  it("puts the resourceVersion precondition into metadata", () => {
    expect(body(SET, cocoonSet(), [["spec.agent.replicas", 2]], "7")).toBe(
      '{"metadata":{"resourceVersion":"7"},"spec":{"agent":{"replicas":2}}}',
    );
  });
});

describe("mergeFromBody: deliberate differences from Go", () => {
  it('deletes the last annotation by key, never the whole map (Go: {"annotations":null})', () => {
    const before = cocoonSet();
    (before.metadata as Record<string, unknown>)["annotations"] = { k: "v" };
    expect(body(SET, before, [["metadata.annotations.k", DELETE]])).toBe('{"metadata":{"annotations":{"k":null}}}');
    expect(body(SET, before, [["metadata.annotations", DELETE]])).toBe('{"metadata":{"annotations":{"k":null}}}');
  });

  it("deletes the last label by key too", () => {
    expect(body(POD, { metadata: { labels: { a: "1", b: "2" } } }, [["metadata.labels", {}]])).toBe(
      '{"metadata":{"labels":{"a":null,"b":null}}}',
    );
  });
});

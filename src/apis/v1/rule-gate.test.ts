import { describe, expect, it } from "vitest";
import { CocoonHibernationSchema } from "./cocoonhibernation-types.js";
import { CocoonSetSpecSchema } from "./cocoonset-spec.js";
import { CocoonSetSchema } from "./cocoonset-types.js";
import { RULES_NOT_CHECKED_MESSAGE } from "./internal/rule-gate.js";
import { cocoonSet, issuesOf, pathsOf } from "./internal/test-fixtures.js";

// Behaviour measured on kube-apiserver 1.35 (test/integration/schema-vs-server.test.ts):
// apiextensions `hasBlockingErr` skips every CEL rule when a type, required, enum or maxLength
// error exists anywhere in the object, and reports a root error instead.
const CEL = "hibernatePolicy=release requires agent.replicas=0 and no toolboxes";
const NOTICE = { path: [], message: RULES_NOT_CHECKED_MESSAGE };
const RULE = { path: ["spec"], message: CEL };
const releaseWith = (agent: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  hibernatePolicy: "release",
  agent: { image: "img", replicas: 1, ...agent },
  ...extra,
});

describe("CocoonSetSchema runs the CEL rule only when the apiserver would", () => {
  it.each([
    ["an enum error", releaseWith({}, { snapshotPolicy: "x" }), "spec.snapshotPolicy"],
    ["a type error", releaseWith({ probePort: "80" }), "spec.agent.probePort"],
    ["a fraction in an integer field", releaseWith({ probePort: 1.5 }), "spec.agent.probePort"],
    ["a missing required field", releaseWith({}, { toolboxes: [{}] }), "spec.toolboxes.0.name"],
    ["a string over its maxLength", releaseWith({}, { snapshotCompatibilityClass: "c".repeat(64) }), "spec.snapshotCompatibilityClass"],
  ])("skips it, with the root notice, after %s", (_name, spec, path) => {
    const result = CocoonSetSchema.safeParse(cocoonSet(spec));
    expect(pathsOf(result)).toEqual([path, ""]);
    expect(issuesOf(result).at(-1)).toEqual(NOTICE);
  });

  it("skips it when metadata.name is missing (a Required error outside the spec)", () => {
    const result = CocoonSetSchema.safeParse({ ...cocoonSet(releaseWith({})), metadata: {} });
    expect(issuesOf(result)).toEqual([{ path: ["metadata", "name"], message: "name or generateName is required" }, NOTICE]);
  });

  it("skips it when a condition's lastTransitionTime is not a date-time (a type error to the apiserver)", () => {
    const status = {
      conditions: [{ type: "Ready", status: "True", reason: "Ok", message: "", lastTransitionTime: "2024-02-30T00:00:00Z" }],
    };
    expect(pathsOf(CocoonSetSchema.safeParse(cocoonSet(releaseWith({}), { status })))).toEqual([
      "status.conditions.0.lastTransitionTime",
      "",
    ]);
  });

  it.each([
    ["a minimum", releaseWith({ replicas: -1 }), "spec.agent.replicas"],
    ["a pattern", releaseWith({}, { toolboxes: [{ name: "Browser" }] }), "spec.toolboxes.0.name"],
    ["a minLength", releaseWith({ image: "" }), "spec.agent.image"],
    ["a duplicate list-map key", releaseWith({ resources: { claims: [{ name: "a" }, { name: "a" }] } }), "spec.agent.resources.claims.1"],
    ["an invalid name", releaseWith({}), "metadata.name"],
  ])("checks it next to %s", (name, spec, path) => {
    const input = cocoonSet(spec);
    const result = CocoonSetSchema.safeParse(name === "an invalid name" ? { ...input, metadata: { name: "Demo" } } : input);
    expect(pathsOf(result)).toEqual([path, "spec"]);
    expect(issuesOf(result).at(-1)).toEqual(RULE);
  });

  it("adds nothing to a valid object", () => {
    expect(CocoonSetSchema.safeParse(cocoonSet({ agent: { image: "img" } })).success).toBe(true);
  });
});

describe("CocoonSetSpecSchema gates the rule on the spec's own errors", () => {
  it("reports the rule at the spec's root", () => {
    expect(issuesOf(CocoonSetSpecSchema.safeParse(releaseWith({})))).toEqual([{ path: [], message: CEL }]);
  });

  it("reports the notice instead after a blocking error", () => {
    expect(pathsOf(CocoonSetSpecSchema.safeParse(releaseWith({ mode: "fork" })))).toEqual(["agent.mode", ""]);
  });
});

describe("CocoonHibernationSchema reports the notice (its only rule is a transition rule)", () => {
  const hibernation = (spec: unknown) => ({
    apiVersion: "cocoonset.cocoonstack.io/v1",
    kind: "CocoonHibernation",
    metadata: { name: "nap" },
    spec,
  });

  it("after a blocking error", () => {
    expect(issuesOf(CocoonHibernationSchema.safeParse(hibernation({ podRef: { name: "p" }, desire: "sleep" }))).at(-1)).toEqual(NOTICE);
  });

  it("not after a minLength error", () => {
    expect(pathsOf(CocoonHibernationSchema.safeParse(hibernation({ podRef: { name: "" }, desire: "Wake" })))).toEqual(["spec.podRef.name"]);
  });
});

describe("list-map keys are checked like apiextensions validateListMap", () => {
  const claims = (items: unknown[]) => CocoonSetSpecSchema.safeParse({ agent: { image: "img", resources: { claims: items } } });
  const dupes = (result: ReturnType<typeof claims>) =>
    issuesOf(result)
      .filter((issue) => issue.message.startsWith("Duplicate value"))
      .map(({ path, message }) => [path.at(-1), message]);

  it.each([
    ["a key twice", [{ name: "a" }, { name: "a" }], [[1, 'Duplicate value: {"name":"a"}']]],
    [
      "a key three times (only the second is reported)",
      [{ name: "a" }, { name: "a" }, { name: "a" }],
      [[1, 'Duplicate value: {"name":"a"}']],
    ],
    [
      "two keys twice",
      [{ name: "a" }, { name: "b" }, { name: "a" }, { name: "b" }],
      [
        [2, 'Duplicate value: {"name":"a"}'],
        [3, 'Duplicate value: {"name":"b"}'],
      ],
    ],
    ["items without the key (one shared unspecified key)", [{}, { request: "r" }, {}], [[1, "Duplicate value: {}"]]],
    ["object keys, compared by value", [{ name: {} }, { name: {} }], [[1, 'Duplicate value: {"name":{}}']]],
    ['1 and "1" (different keys)', [{ name: 1 }, { name: "1" }], []],
    ["a non-object item (left to the type error)", [{ name: "a" }, "a", { name: "a" }], []],
  ])("%s", (_name, items, expected) => {
    expect(dupes(claims(items))).toEqual(expected);
  });

  it("checks duplicates even when an item has an aborting error", () => {
    const status = {
      conditions: [
        { type: "Ready", status: "bad", reason: "Ok", message: "", lastTransitionTime: "2024-01-02T03:04:05Z" },
        { type: "Ready", status: "True", reason: "Ok", message: "", lastTransitionTime: "2024-01-02T03:04:05Z" },
      ],
      agents: [
        { slot: 1.5, role: "main" },
        { slot: 1.5, role: "sub" },
      ],
    };
    const result = CocoonSetSchema.safeParse(cocoonSet({ agent: { image: "img" } }, { status }));
    expect(pathsOf(result)).toEqual([
      "status.agents.0.slot",
      "status.agents.1.slot",
      "status.agents.1",
      "status.conditions.0.status",
      "status.conditions.1",
      "",
    ]);
  });
});

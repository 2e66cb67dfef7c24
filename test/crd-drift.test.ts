/**
 * Compares the generated CRDs with the ones controller-gen writes for the Go types, committed in
 * `test/fixtures/go/crds/` (controller-gen v0.20.1 on cocoon-common v0.3.0, see the README there);
 * `description` texts and the controller-gen version annotation are ignored, everything else must
 * be identical.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cocoonHibernationCRD, cocoonSetCRD } from "../src/apis/v1/crd.js";
import { readGoText } from "../src/internal/go-vectors.test-util.js";

const CASES = [
  ["cocoonset.cocoonstack.io_cocoonsets.yaml", cocoonSetCRD],
  ["cocoonset.cocoonstack.io_cocoonhibernations.yaml", cocoonHibernationCRD],
] as const;

/** Drops every string `description` and controller-gen's version annotation; returns a deep copy. */
function normalizeCRD(value: unknown): unknown {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === "description" && typeof child === "string") continue;
      out[key] = strip(child);
    }
    return out;
  };
  const copy = strip(value) as { metadata?: { annotations?: Record<string, string> } };
  const annotations = copy.metadata?.annotations;
  if (annotations !== undefined) {
    delete annotations["controller-gen.kubebuilder.io/version"];
    if (Object.keys(annotations).length === 0) delete copy.metadata?.annotations;
  }
  return copy;
}

/** Every path at which `ours` and `theirs` differ, with both values; `[]` when they are equal. */
function diffPaths(ours: unknown, theirs: unknown, at = ""): string[] {
  if (Object.is(ours, theirs)) return [];
  const bothObjects = typeof ours === "object" && ours !== null && typeof theirs === "object" && theirs !== null;
  if (!bothObjects || Array.isArray(ours) !== Array.isArray(theirs)) {
    return [`${at || "(root)"}: ours ${JSON.stringify(ours)} != controller-gen ${JSON.stringify(theirs)}`];
  }
  const a = ours as Record<string, unknown>;
  const b = theirs as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap((key) => {
    const child = Array.isArray(ours) ? `${at}[${key}]` : at === "" ? key : `${at}.${key}`;
    if (!(key in a)) return [`${child}: missing in ours (controller-gen ${JSON.stringify(b[key])})`];
    if (!(key in b)) return [`${child}: extra in ours (${JSON.stringify(a[key])})`];
    return diffPaths(a[key], b[key], child);
  });
}

describe("diffPaths", () => {
  it("reports nothing for equal values", () => {
    expect(diffPaths({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toEqual([]);
  });

  it("reports every differing, missing and extra path", () => {
    expect(diffPaths({ a: [1, { b: "x" }], c: 1 }, { a: [1, { b: "y" }, 3], d: 2 })).toEqual([
      'a[1].b: ours "x" != controller-gen "y"',
      "a[2]: missing in ours (controller-gen 3)",
      "c: extra in ours (1)",
      "d: missing in ours (controller-gen 2)",
    ]);
  });

  it("ignores descriptions and the controller-gen annotation after normalizing", () => {
    const theirs = {
      metadata: { name: "n", annotations: { "controller-gen.kubebuilder.io/version": "v0.20.1" } },
      spec: { description: "theirs", properties: { description: { type: "string", description: "d" } } },
    };
    expect(
      diffPaths(normalizeCRD({ metadata: { name: "n" }, spec: { properties: { description: { type: "string" } } } }), normalizeCRD(theirs)),
    ).toEqual([]);
  });
});

describe("CRD drift against controller-gen", () => {
  const goCRD = (file: string): unknown => normalizeCRD(parse(readGoText(`crds/${file}`)));

  it.each(CASES)("%s: 0 differences", (file, crd) => {
    expect(diffPaths(normalizeCRD(crd), goCRD(file))).toEqual([]);
  });

  it("reports the exact path of a change to our object", () => {
    const mutated = structuredClone(cocoonSetCRD);
    const replicas = mutated.spec.versions[0]?.schema.openAPIV3Schema.properties?.spec?.properties?.agent?.properties?.replicas;
    if (replicas === undefined) throw new Error("spec.agent.replicas missing from the generated CRD");
    replicas.minimum = 1;
    delete replicas.default;
    expect(diffPaths(normalizeCRD(mutated), goCRD(CASES[0][0]))).toEqual([
      "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.agent.properties.replicas.default: missing in ours (controller-gen 0)",
      "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.agent.properties.replicas.minimum: ours 1 != controller-gen 0",
    ]);
  });
});

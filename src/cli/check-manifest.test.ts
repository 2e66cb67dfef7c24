import { describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/crd.js";
import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import { CocoonSetSchema } from "../apis/v1/cocoonset-types.js";
import { isRulesNotCheckedIssue } from "../internal/rules-not-checked.js";
import { MAX_REQUEST_BYTES, checkManifest, unknownFields } from "./check-manifest.js";
import { parseManifests } from "./manifests.js";

const one = (text: string) => {
  const [manifest] = parseManifests({ name: "m.yaml", text });
  if (manifest === undefined) throw new Error("no manifest");
  return manifest;
};
const HEAD = "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSet\nmetadata:\n  name: demo\n  namespace: default\n";
const errorsOf = (text: string, oldText?: string) => checkManifest(one(text), oldText === undefined ? undefined : one(oldText)).errors;

describe("checkManifest", () => {
  it("accepts a valid CocoonSet and returns it as stored, defaults applied", () => {
    const result = checkManifest(one(`${HEAD}spec:\n  agent:\n    image: img\n`));
    expect(result).toMatchObject({ kind: "CocoonSet", namespace: "default", name: "demo", valid: true, skipped: false, errors: [] });
    expect(result.object).toEqual({
      apiVersion: "cocoonset.cocoonstack.io/v1",
      kind: "CocoonSet",
      metadata: { name: "demo", namespace: "default" },
      spec: {
        snapshotPolicy: "always",
        hibernatePolicy: "retain",
        nodePool: "default",
        agent: { replicas: 0, image: "img", mode: "clone", os: "linux", backend: "cloud-hypervisor" },
      },
    });
  });

  it.each([
    {
      name: "a missing required field, at the line of its parent",
      spec: "spec:\n  agent:\n    replicas: 1\n",
      want: [{ path: "spec.agent.image", line: 7, message: "Required value" }],
    },
    {
      name: "the CEL rule, on spec",
      spec: "spec:\n  hibernatePolicy: release\n  agent:\n    image: img\n    replicas: 2\n",
      want: [{ path: "spec", line: 6, message: "hibernatePolicy=release requires agent.replicas=0 and no toolboxes" }],
    },
    {
      name: "an unknown field",
      spec: "spec:\n  agent:\n    image: img\n    imag: typo\n",
      want: [{ path: "spec.agent.imag", line: 9, message: "unknown field" }],
    },
    {
      name: "several errors, sorted by line",
      spec: "spec:\n  snapshotPolicy: sometimes\n  agent:\n    image: img\n  toolboxes:\n    - name: Bad\n",
      want: [
        {
          path: "spec.snapshotPolicy",
          line: 7,
          message: 'Unsupported value: "sometimes": supported values: "always", "main-only", "never"',
        },
        {
          path: "spec.toolboxes[0].name",
          line: 11,
          message: 'Invalid value: the string "Bad": must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
        },
      ],
    },
    {
      name: "fields named like Object.prototype members, as the API server's strict validation does",
      spec: "spec:\n  agent:\n    image: img\n    constructor: x\n    __proto__: {}\n  toString: y\n",
      want: [
        { path: "spec.agent.constructor", line: 9, message: "unknown field" },
        { path: "spec.agent.__proto__", line: 10, message: "unknown field" },
        { path: "spec.toString", line: 11, message: "unknown field" },
      ],
    },
    {
      name: "a quantity in the user's words",
      spec: "spec:\n  agent:\n    image: img\n    storage: 20 GiB\n",
      want: [{ path: "spec.agent.storage", line: 9, message: 'must be a quantity such as 512Mi or 1.5Gi, got the string "20 GiB"' }],
    },
    {
      name: "a wrong type, naming what the field takes",
      spec: "spec:\n  agent:\n    image: img\n    replicas: two\n  nodePool: [a]\n",
      want: [
        { path: "spec.agent.replicas", line: 9, message: 'must be an integer, got the string "two"' },
        { path: "spec.nodePool", line: 10, message: "must be a string, got a list" },
      ],
    },
    {
      name: "a bound",
      spec: "spec:\n  agent:\n    image: img\n    replicas: -1\n",
      want: [{ path: "spec.agent.replicas", line: 9, message: "must be at least 0, got the number -1" }],
    },
  ])("reports $name", ({ spec, want }) => {
    expect(errorsOf(`${HEAD}${spec}`)).toEqual(want);
  });

  it("skips other kinds", () => {
    expect(checkManifest(one("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n"))).toMatchObject({
      valid: true,
      skipped: true,
      reason: "not a CocoonSet or CocoonHibernation",
      errors: [],
    });
  });

  it.each([
    { name: "no kind", text: "apiVersion: v1\nmetadata: {}\n", want: [{ path: "kind", line: 1, message: "Required value" }] },
    {
      name: "an unknown kind of the cocoon group",
      text: "apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonSets\n",
      want: [{ path: "kind", line: 2, message: 'Unsupported value: "CocoonSets": supported values: "CocoonSet", "CocoonHibernation"' }],
    },
    {
      name: "a CocoonSet of another version",
      text: "apiVersion: cocoonset.cocoonstack.io/v2\nkind: CocoonSet\nmetadata:\n  name: a\n",
      want: [
        {
          path: "apiVersion",
          line: 1,
          message: 'Unsupported value: "cocoonset.cocoonstack.io/v2": supported values: "cocoonset.cocoonstack.io/v1"',
        },
      ],
    },
    {
      name: "a document that is not a mapping",
      text: "just text\n",
      want: [
        { path: "", line: 1, message: 'expected a Kubernetes object (a mapping with apiVersion and kind), got the string "just text"' },
      ],
    },
  ])("rejects $name", ({ text, want }) => {
    expect(errorsOf(text)).toEqual(want);
  });

  it("skips a kind named like an Object.prototype member", () => {
    expect(checkManifest(one("apiVersion: v1\nkind: toString\n"))).toMatchObject({ valid: true, skipped: true });
  });

  it("refuses an object over the API server's request limit without checking it further", () => {
    const name = "a.".repeat(2.5e6);
    const result = checkManifest(one(`${HEAD.replace("name: demo", `name: ${name}a`)}spec:\n  agent:\n    image: img\n`));
    const size = Buffer.byteLength(JSON.stringify(result.manifest.value));
    expect(size).toBeGreaterThan(MAX_REQUEST_BYTES);
    expect(result.errors).toEqual([
      { path: "", line: 1, message: `too large: ${size} bytes as JSON, the API server accepts at most 3145728 per request` },
    ]);
  });

  describe("--validate", () => {
    const typo = `${HEAD}spec:\n  agent:\n    image: img\n    imag: typo\n    image: img2\n`;
    const check = (mode: "strict" | "warn" | "ignore") => {
      const [manifest] = parseManifests({ name: "m.yaml", text: typo }, mode === "strict" ? undefined : false);
      if (manifest === undefined) throw new Error("no manifest");
      const { valid, errors, warnings } = checkManifest(manifest, undefined, mode);
      return { valid, errors, warnings };
    };
    const found = [
      { path: "spec.agent.imag", line: 9, message: "unknown field" },
      { path: "", line: 10, message: "duplicate field" },
    ];

    it("strict refuses a duplicate key as the YAML decoder does", () => {
      expect(() => parseManifests({ name: "m.yaml", text: typo })).toThrow(expect.objectContaining({ code: "ERR_CLI_INPUT" }));
    });

    it("warn reports unknown fields and duplicate keys as warnings; the object stays valid", () => {
      expect(check("warn")).toEqual({ valid: true, errors: [], warnings: found });
    });

    it("ignore drops them silently", () => {
      expect(check("ignore")).toEqual({ valid: true, errors: [], warnings: [] });
    });
  });

  it("drops the server's root notice by its typed marker, and skips the transition rules after it", () => {
    const bad = `${HEAD}spec:\n  snapshotCompatibilityClass: gen-b\n  snapshotPolicy: x\n  agent:\n    image: img\n`;
    const notice = CocoonSetSchema.safeParse(one(bad).value).error?.issues.filter(isRulesNotCheckedIssue);
    expect(notice).toHaveLength(1);
    expect(errorsOf(bad, bad.replace("gen-b", "gen-a"))).toEqual([
      { path: "spec.snapshotPolicy", line: 8, message: 'Unsupported value: "x": supported values: "always", "main-only", "never"' },
    ]);
  });

  describe("as an update (--old)", () => {
    const withClass = (value: string) => `${HEAD}spec:\n  snapshotCompatibilityClass: ${value}\n  agent:\n    image: img\n`;

    it.each([
      { name: "unchanged class", oldText: withClass("gen-a"), newText: withClass("gen-a"), want: [] },
      { name: "unset to set", oldText: `${HEAD}spec:\n  agent:\n    image: img\n`, newText: withClass("gen-a"), want: [] },
      {
        name: "changed class",
        oldText: withClass("gen-a"),
        newText: withClass("gen-b"),
        want: [{ path: "spec", line: 6, message: "snapshotCompatibilityClass is immutable once set" }],
      },
      {
        name: "removed class",
        oldText: withClass("gen-a"),
        newText: `${HEAD}spec:\n  agent:\n    image: img\n`,
        want: [{ path: "spec", line: 6, message: "snapshotCompatibilityClass is immutable once set" }],
      },
    ])("CocoonSet: $name", ({ oldText, newText, want }) => {
      expect(errorsOf(newText, oldText)).toEqual(want);
    });

    it("CocoonHibernation: a changed podRef", () => {
      const ch = (pod: string) =>
        `apiVersion: cocoonset.cocoonstack.io/v1\nkind: CocoonHibernation\nmetadata:\n  name: nap\nspec:\n  desire: Hibernate\n  podRef:\n    name: ${pod}\n`;
      expect(errorsOf(ch("b"), ch("a"))).toEqual([{ path: "spec.podRef", line: 7, message: "spec.podRef is immutable" }]);
    });

    it("keeps the old object on the result", () => {
      const old = one(withClass("gen-a"));
      expect(checkManifest(one(withClass("gen-a")), old).old).toBe(old);
    });
  });
});

const schemaOf = (crd: typeof cocoonSetCRD): JSONSchemaProps => crd.spec.versions[0]!.schema.openAPIV3Schema;
const SET = schemaOf(cocoonSetCRD);

describe("unknownFields", () => {
  it.each([
    {
      name: "none in a full object",
      value: { apiVersion: "v", kind: "k", metadata: { name: "a", labels: { x: "y" } }, spec: { agent: { image: "i" } } },
      want: [],
    },
    { name: "a typo in the agent", value: { spec: { agent: { imag: "i" } } }, want: [["spec", "agent", "imag"]] },
    { name: "a top-level field", value: { spek: {} }, want: [["spek"]] },
    {
      name: "inside a list item",
      value: { spec: { agent: { image: "i" }, toolboxes: [{ name: "a" }, { name: "b", colour: 1 }] } },
      want: [["spec", "toolboxes", 1, "colour"]],
    },
    {
      name: "free keys of a map (resources.limits) are fine",
      value: { spec: { agent: { image: "i", resources: { limits: { "nvidia.com/gpu": 1 } } } } },
      want: [],
    },
    { name: "an ObjectMeta typo", value: { metadata: { name: "a", label: {} } }, want: [["metadata", "label"]] },
    { name: "deep metadata is not checked", value: { metadata: { ownerReferences: [{ anything: 1 }] } }, want: [] },
    { name: "status fields are known", value: { status: { phase: "Running", readyAgents: 1 } }, want: [] },
  ])("$name", ({ value, want }) => {
    expect(unknownFields(value, SET)).toEqual(want);
  });

  it("uses the schema it is given", () => {
    expect(unknownFields({ spec: { podRef: { name: "p" }, desire: "Wake", agent: {} } }, schemaOf(cocoonHibernationCRD))).toEqual([
      ["spec", "agent"],
    ]);
  });

  it("ignores values of the wrong type (the schema check reports those)", () => {
    expect(unknownFields({ spec: "nope" }, SET)).toEqual([]);
    expect(unknownFields("nope", SET)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { checkManifest } from "./check-manifest.js";
import { parseManifests } from "./yaml-stream.js";

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
        { path: "spec.snapshotPolicy", line: 7, message: 'Invalid option: expected one of "always"|"main-only"|"never"' },
        { path: "spec.toolboxes[0].name", line: 11, message: "Invalid string: must match pattern /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/" },
      ],
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
      want: [{ path: "apiVersion", line: 1, message: 'Invalid input: expected "cocoonset.cocoonstack.io/v1"' }],
    },
    {
      name: "a document that is not a mapping",
      text: "just text\n",
      want: [{ path: "", line: 1, message: "expected a Kubernetes object (a mapping with apiVersion and kind), got a string" }],
    },
  ])("rejects $name", ({ text, want }) => {
    expect(errorsOf(text)).toEqual(want);
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

import { describe, expect, it } from "vitest";
import { parseManifests } from "./manifests.js";

const parse = (text: string) => parseManifests({ name: "in.yaml", text });
const summary = (text: string) => parse(text).map(({ document, item, line, value }) => ({ document, item, line, value }));

describe("parseManifests", () => {
  it("numbers documents from 1, counting empty ones, and skips them", () => {
    expect(summary("# header\n---\na: 1\n---\n---\nb: 2\n")).toEqual([
      { document: 1, item: undefined, line: 3, value: { a: 1 } },
      { document: 3, item: undefined, line: 6, value: { b: 2 } },
    ]);
  });

  it("returns nothing for an empty stream or comments only", () => {
    expect(parse("")).toEqual([]);
    expect(parse("# nothing\n")).toEqual([]);
  });

  it("reads JSON, with line numbers", () => {
    const [m] = parse('{\n  "kind": "CocoonSet",\n  "spec": {"agent": {"image": ""}}\n}\n');
    expect(m?.value).toEqual({ kind: "CocoonSet", spec: { agent: { image: "" } } });
    expect(m?.lineOf(["spec", "agent", "image"])).toBe(3);
  });

  it("flattens a List into its items, as kubectl does", () => {
    const text = "apiVersion: v1\nkind: List\nitems:\n  - kind: A\n  - kind: B\n    x: 1\n";
    expect(summary(text)).toEqual([
      { document: 1, item: 0, line: 4, value: { kind: "A" } },
      { document: 1, item: 1, line: 5, value: { kind: "B", x: 1 } },
    ]);
    expect(parse(text)[1]?.lineOf(["x"])).toBe(6);
  });

  it("reads scalars as kubectl (go-yaml v2, YAML 1.1) does", () => {
    const [m] = parse("a: yes\nb: off\nc: 0755\nd: 2024-01-01\ne: 1:20\nf: 'yes'\ng: 0x1F\n");
    expect(m?.value).toEqual({ a: true, b: false, c: 493, d: "2024-01-01", e: "1:20", f: "yes", g: 31 });
  });

  it.each([
    {
      name: "syntax error",
      text: "a: 1\nb: [\n",
      want: "in.yaml:3:1: cannot parse YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    },
    { name: "duplicate key", text: "a: 1\na: 2\n", want: 'in.yaml:2:1: cannot parse YAML: key "a" already set in map' },
    { name: "self-referencing alias", text: "a: &n {b: *n}\n", want: "in.yaml:1:11: cannot parse YAML: anchor 'n' value contains itself" },
    {
      name: "cycle through a list",
      text: "a: &n [x, {y: [*n]}]\n",
      want: "in.yaml:1:16: cannot parse YAML: anchor 'n' value contains itself",
    },
    { name: "unknown anchor", text: "a: *nope\n", want: "in.yaml:1:4: cannot parse YAML: unknown anchor 'nope' referenced" },
    { name: "collection key", text: "? [a]\n: b\n", want: "in.yaml:1:3: cannot parse YAML: invalid map key: a collection" },
    {
      name: "merge of a scalar",
      text: "a: &x 1\nb:\n  <<: *x\n",
      want: "in.yaml:1:1: cannot parse YAML: Merge sources must be maps or map aliases",
    },
    {
      name: "nesting past the limit",
      text: `a: ${"[".repeat(257)}${"]".repeat(257)}\n`,
      want: "in.yaml:1:259: cannot parse YAML: nested deeper than 256 levels",
    },
    { name: "error in a later document", text: "a: 1\n---\nb: 'x\n", want: "in.yaml:4:1: cannot parse YAML: Missing closing 'quote" },
  ])("throws ERR_CLI_INPUT with FILE:LINE:COL on a $name", ({ text, want }) => {
    expect(() => parse(text)).toThrow(expect.objectContaining({ name: "CliError", code: "ERR_CLI_INPUT", message: want }));
  });
});

describe("lineOf (through parseManifests)", () => {
  const text = [
    "kind: CocoonSet", // 1
    "spec:", // 2
    "  agent:", // 3
    "    image: ''", // 4
    "  toolboxes:", // 5
    "    - name: a", // 6
    "    - name: B", // 7
    "      mode: run", // 8
    "  base: &base", // 9
    "    os: linux", // 10
    "  other: *base", // 11
  ].join("\n");
  const [manifest] = parseManifests({ name: "x.yaml", text });

  it.each([
    { name: "the object itself", path: [], want: 1 },
    { name: "a mapping value points at its key", path: ["spec", "agent"], want: 3 },
    { name: "a scalar", path: ["spec", "agent", "image"], want: 4 },
    { name: "a list item", path: ["spec", "toolboxes", 1], want: 7 },
    { name: "a field of a list item", path: ["spec", "toolboxes", 1, "mode"], want: 8 },
    { name: "a missing field falls back to its parent", path: ["spec", "agent", "replicas"], want: 3 },
    { name: "a missing index falls back to the list", path: ["spec", "toolboxes", 5, "name"], want: 5 },
    { name: "an alias is followed to its anchor", path: ["spec", "other", "os"], want: 10 },
  ])("$name", ({ path, want }) => {
    expect(manifest?.lineOf(path)).toBe(want);
  });
});

describe("aliases (go-yaml's rules, in linear time)", () => {
  it("expands aliases and merge keys as kubectl does, into separate objects", () => {
    const [m] = parse("base: &b {x: 1}\nuse: *b\nmerged:\n  <<: *b\n  z: 2\nlist: &l [*b, *b]\n");
    expect(m?.value).toEqual({ base: { x: 1 }, use: { x: 1 }, merged: { x: 1, z: 2 }, list: [{ x: 1 }, { x: 1 }] });
  });

  it("allows alias expansion within go-yaml's ratio", () => {
    expect(parse(`a: &a [x, x]\nb: [${Array(150).fill("*a").join(", ")}]\n`)).toHaveLength(1);
  });

  it("points a field reached through an alias at its anchor", () => {
    const [m] = parse("a: &a\n  x: 1\nb: *a\n");
    expect(m?.lineOf(["b", "x"])).toBe(2);
  });

  it("lets the last duplicate key win when keys are not strict, and says where each duplicate is", () => {
    const [m] = parseManifests({ name: "in.yaml", text: "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n" }, false);
    expect({ value: m?.value, duplicateKeyLines: m?.duplicateKeyLines }).toEqual({
      value: { a: 3, b: { c: 2 } },
      duplicateKeyLines: [4, 5],
    });
  });

  it("keeps __proto__ an own key, never the prototype", () => {
    const [m] = parse("__proto__: {polluted: true}\n");
    expect(Object.getPrototypeOf(m?.value)).toBe(Object.prototype);
    expect(Object.keys(m?.value as object)).toEqual(["__proto__"]);
  });
});

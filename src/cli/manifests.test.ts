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
    { name: "syntax error", text: "a: 1\nb: [\n", want: "in.yaml:3:1: cannot parse YAML: Flow sequence in block collection must be sufficiently indented and end with a ]" },
    { name: "duplicate key", text: "a: 1\na: 2\n", want: "in.yaml:2:1: cannot parse YAML: Map keys must be unique" },
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

import { describe, expect, it } from "vitest";
import { formatFieldPath } from "./field-path.js";
import { parseManifests } from "./yaml-stream.js";

describe("formatFieldPath", () => {
  it.each([
    { name: "root", path: [], want: "" },
    { name: "nested keys", path: ["spec", "agent", "image"], want: "spec.agent.image" },
    { name: "list index", path: ["spec", "toolboxes", 0, "name"], want: "spec.toolboxes[0].name" },
    { name: "key with dots and slash", path: ["metadata", "annotations", "vm.cocoonstack.io/hibernate"], want: "metadata.annotations[vm.cocoonstack.io/hibernate]" },
    { name: "dashed key", path: ["data", "my-key"], want: "data.my-key" },
    { name: "index first", path: [2, "a"], want: "[2].a" },
  ])("$name", ({ path, want }) => {
    expect(formatFieldPath(path)).toBe(want);
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

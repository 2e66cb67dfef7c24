import { describe, expect, it } from "vitest";
import { formatFieldPath, identityOf } from "./findings.js";

describe("formatFieldPath", () => {
  it.each([
    { name: "root", path: [], want: "" },
    { name: "nested keys", path: ["spec", "agent", "image"], want: "spec.agent.image" },
    { name: "list index", path: ["spec", "toolboxes", 0, "name"], want: "spec.toolboxes[0].name" },
    {
      name: "key with dots and slash",
      path: ["metadata", "annotations", "vm.cocoonstack.io/hibernate"],
      want: "metadata.annotations[vm.cocoonstack.io/hibernate]",
    },
    { name: "dashed key", path: ["data", "my-key"], want: "data.my-key" },
    { name: "index first", path: [2, "a"], want: "[2].a" },
  ])("$name", ({ path, want }) => {
    expect(formatFieldPath(path)).toBe(want);
  });
});

describe("identityOf", () => {
  it.each([
    {
      name: "a full object",
      value: { kind: "Pod", metadata: { name: "a", namespace: "ns" } },
      want: { kind: "Pod", namespace: "ns", name: "a" },
    },
    { name: "not an object", value: "x", want: { kind: null, namespace: null, name: null } },
    { name: "empty and non-string values", value: { kind: "", metadata: { name: 7 } }, want: { kind: null, namespace: null, name: null } },
    {
      name: "no own kind (Object.prototype members are not fields)",
      value: { metadata: {} },
      want: { kind: null, namespace: null, name: null },
    },
    { name: "metadata that is a list", value: { kind: "Pod", metadata: ["name"] }, want: { kind: "Pod", namespace: null, name: null } },
  ])("$name", ({ value, want }) => {
    expect(identityOf(value)).toEqual(want);
  });
});

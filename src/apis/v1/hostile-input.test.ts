import { describe, expect, it } from "vitest";
import { ConditionSchema } from "./condition.js";
import { CocoonSetSpecSchema } from "./cocoonset-spec.js";
import { CocoonSetSchema } from "./cocoonset-types.js";
import { cocoonSet, issuesOf, pathsOf } from "./internal/test-fixtures.js";
import { ObjectMetaSchema } from "./object-meta.js";

// safeParse reports what is wrong; it never throws on data, however deep, cyclic or long.
const claims = (...items: unknown[]) => CocoonSetSpecSchema.safeParse({ agent: { image: "img", resources: { claims: items } } });
const duplicates = (result: ReturnType<typeof claims>) =>
  issuesOf(result)
    .filter(({ message }) => message.startsWith("Duplicate value"))
    .map(({ path, message }) => [path.at(-1), message.length > 80 ? `${message.slice(0, 40)}…` : message]);

function nested(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("list-map keys that JSON.stringify cannot print", () => {
  it("cyclic keys: a type error each and the CEL notice, no duplicate (a cycle has no JSON text)", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const result = claims({ name: cycle }, { name: cycle });
    expect(pathsOf(result)).toEqual(["agent.resources.claims.0.name", "agent.resources.claims.1.name", ""]);
  });

  it("keys nested 10,000 levels deep compare by value", () => {
    const result = claims({ name: nested(10_000) }, { name: nested(10_000) }, { name: nested(9_999) });
    expect(duplicates(result)).toEqual([[1, 'Duplicate value: {"name":{"a":{"a":{"a":…']]);
    expect(pathsOf(result).filter((path) => path.endsWith(".name"))).toHaveLength(3);
  });

  it("bigint keys compare by their digits", () => {
    const result = claims({ name: 1n }, { name: 1n }, { name: 2n });
    expect(duplicates(result)).toEqual([[1, 'Duplicate value: {"name":1}']]);
  });

  it("object keys compare by JSON text with sorted keys, as Go marshals them", () => {
    expect(duplicates(claims({ name: { a: 1, b: 2 } }, { name: { b: 2, a: 1 } }))).toEqual([
      [1, 'Duplicate value: {"name":{"a":1,"b":2}}'],
    ]);
    expect(duplicates(claims({ name: [1, "1"] }, { name: [1, 1] }))).toEqual([]);
  });
});

describe("names of megabytes", () => {
  const dotted = `${"a.".repeat(2_500_000)}!`;
  const subdomainIssue: unknown = expect.stringContaining("a lowercase RFC 1123 subdomain");

  it("a 5 MB dotted metadata.name fails both name checks", () => {
    const result = ObjectMetaSchema.safeParse({ name: dotted });
    expect(issuesOf(result)).toEqual([
      { path: ["name"], message: "must be no more than 253 characters" },
      { path: ["name"], message: subdomainIssue },
    ]);
  });

  it("a 5 MB dotted generateName fails as a prefix; the generated name (58 characters kept) is valid", () => {
    const result = ObjectMetaSchema.safeParse({ generateName: dotted });
    expect(issuesOf(result)).toEqual([
      { path: ["generateName"], message: "must be no more than 253 characters" },
      { path: ["generateName"], message: subdomainIssue },
    ]);
  });

  it("a 5 MB condition type is too long and does not match the pattern", () => {
    const condition = { type: dotted, status: "True", reason: "Ok", message: "", lastTransitionTime: "2024-01-02T03:04:05Z" };
    const result = ConditionSchema.safeParse(condition);
    expect(issuesOf(result).map(({ path, message }) => [path.join("."), message.slice(0, 30)])).toEqual([
      ["type", "Too big: expected string to ha"],
      ["type", "Invalid string: must match pat"],
    ]);
  });

  it("a valid 4 MB dotted name is only too long", () => {
    const result = CocoonSetSchema.safeParse(cocoonSet({ agent: { image: "img" } }, { metadata: { name: dotted.slice(0, -2) } }));
    expect(issuesOf(result)).toEqual([{ path: ["metadata", "name"], message: "must be no more than 253 characters" }]);
  });
});

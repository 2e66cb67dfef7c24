import { describe, expect, it } from "vitest";
import { mergePatchDiff } from "./merge-patch-diff.js";

describe("mergePatchDiff", () => {
  it.each([
    ["equal objects", { a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] } }, undefined],
    ["changed scalar", { a: 1 }, { a: 2 }, { a: 2 }],
    ["added key", { a: 1 }, { a: 1, b: "x" }, { b: "x" }],
    ["removed key becomes null", { a: 1, b: "x" }, { a: 1 }, { b: null }],
    ["nested map keeps siblings out", { m: { x: "1", y: "2" } }, { m: { x: "1", y: "3" } }, { m: { y: "3" } }],
    ["added map goes whole", { a: 1 }, { a: 1, m: { x: "1" } }, { m: { x: "1" } }],
    ["changed list element sends the whole list", { l: [{ n: 1 }, { n: 2 }] }, { l: [{ n: 1 }, { n: 3 }] }, { l: [{ n: 1 }, { n: 3 }] }],
    ["appended list element", { l: [1] }, { l: [1, 2] }, { l: [1, 2] }],
    ["removed list", { l: [1], a: 1 }, { a: 1 }, { l: null }],
    [
      "list deep inside maps",
      { s: { c: [{ t: "Ready", s: "False" }] } },
      { s: { c: [{ t: "Ready", s: "True" }] } },
      { s: { c: [{ t: "Ready", s: "True" }] } },
    ],
    ["keys with slash and tilde", { m: { "a/b": "1", "c~d": "1" } }, { m: { "a/b": "2", "c~d": "2" } }, { m: { "a/b": "2", "c~d": "2" } }],
    ["explicit null deletes", { a: { b: 1 } }, { a: null }, { a: null }],
    ["undefined fields are absent", { a: 1, b: undefined }, { a: 1 }, undefined],
    ["several changes", { a: 1, b: 2, m: { x: 1 } }, { a: 9, m: { x: 1, y: 2 }, c: 3 }, { a: 9, b: null, m: { y: 2 }, c: 3 }],
  ])("%s", (_name, before, after, expected) => {
    expect(mergePatchDiff(before, after)).toEqual(expected);
  });

  it("compares dates by their JSON form", () => {
    const when = "2024-01-02T03:04:05.000Z";
    expect(mergePatchDiff({ t: new Date(when) }, { t: new Date(when) })).toBeUndefined();
    expect(mergePatchDiff({ t: new Date(when) }, { t: new Date("2025-01-01T00:00:00Z") })).toEqual({ t: "2025-01-01T00:00:00.000Z" });
  });

  it("writes a __proto__ key as an own property", () => {
    const before = JSON.parse('{"m":{}}') as object;
    const after = JSON.parse('{"m":{"__proto__":"x"}}') as object;
    expect(JSON.stringify(mergePatchDiff(before, after))).toBe('{"m":{"__proto__":"x"}}');
  });

  it("leaves both inputs untouched", () => {
    const before = { a: { b: [1] } };
    const after = { a: { b: [2] }, c: 1 };
    mergePatchDiff(before, after);
    expect(before).toEqual({ a: { b: [1] } });
    expect(after).toEqual({ a: { b: [2] }, c: 1 });
  });
});

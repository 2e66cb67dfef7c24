import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonKeyText } from "./json-key-text.js";

/** A recursive printer with sorted object keys: the reference for small acyclic JSON values. */
function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedStringify((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

describe("jsonKeyText", () => {
  it("prints JSON values as JSON.stringify does, with sorted object keys", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonKeyText(value)).toBe(sortedStringify(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each<[string, unknown, string]>([
    ["a string with a lone surrogate", "\ud800", '"\\ud800"'],
    ["a bigint as its digits", 12345678901234567890n, "12345678901234567890"],
    ["-0 as 0", -0, "0"],
    ["null", null, "null"],
    ["nested arrays and objects", { b: [1, { d: null, c: true }], a: "x" }, '{"a":"x","b":[1,{"c":true,"d":null}]}'],
  ])("%s", (_name, value, want) => {
    expect(jsonKeyText(value)).toBe(want);
  });

  it("has no text for what JSON cannot hold, and never throws", () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    for (const value of [undefined, Symbol("s"), () => 1, Number.NaN, Infinity, cycle, [undefined], { a: Symbol("s") }, throwing]) {
      expect(jsonKeyText(value)).toBeUndefined();
    }
  });

  it("prints a shared (not cyclic) member twice", () => {
    const shared = { a: 1 };
    expect(jsonKeyText([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it("walks 100,000 levels without the call stack", () => {
    let value: unknown = 0;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(jsonKeyText(value)).toBe(`${"[".repeat(100_000)}0${"]".repeat(100_000)}`);
  });
});

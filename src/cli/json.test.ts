import { describe, expect, it } from "vitest";
import { toJSON } from "./json.js";

describe("toJSON", () => {
  it("writes a bigint as a JSON number with every digit", () => {
    expect(toJSON({ a: 9223372036854775807n, b: -5n, c: [1n] })).toBe('{\n  "a": 9223372036854775807,\n  "b": -5,\n  "c": [\n    1\n  ]\n}');
  });

  it("leaves strings that look like the marker alone", () => {
    expect(toJSON({ s: "bigint:1" })).toBe('{\n  "s": "bigint:1"\n}');
  });
});

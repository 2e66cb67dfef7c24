import { describe, expect, it } from "vitest";
import { goJSONString } from "./json-quote.js";
import { marshalGoJSON } from "./json-marshal.js";

describe("goJSONString", () => {
  it.each([
    ["plain ASCII", "abc", '"abc"'],
    ["empty", "", '""'],
    ["HTML characters", "<a&b>", '"\\u003ca\\u0026b\\u003e"'],
    ["line and paragraph separators", "\u2028\u2029", '"\\u2028\\u2029"'],
    ["short escapes", '"\\\b\f\n\r\t', '"\\"\\\\\\b\\f\\n\\r\\t"'],
    ["other controls", "\u0000\u001f", '"\\u0000\\u001f"'],
    ["DEL and NEL stay raw", "\u007f\u0085", '"\u007f\u0085"'],
    ["slash stays raw", "a/b", '"a/b"'],
    ["astral pair stays raw", "😀", '"😀"'],
    ["lone high surrogate", "a\ud83d", '"a\ufffd"'],
    ["lone low surrogate", "\ude00b", '"\ufffdb"'],
    ["reversed pair", "\ude00\ud83d", '"\ufffd\ufffd"'],
  ])("%s", (_, input, expected) => {
    expect(goJSONString(input)).toBe(expected);
  });
});

describe("marshalGoJSON", () => {
  it.each<[string, unknown, string]>([
    ["null", null, "null"],
    ["booleans", [true, false], "[true,false]"],
    ["integers", [0, -1, 9007199254740991], "[0,-1,9007199254740991]"],
    ["negative zero", -0, "-0"],
    ["exponent forms", [1e21, 1e-7, 1.5e-9, 5e-324, 0.000001], "[1e+21,1e-7,1.5e-9,5e-324,0.000001]"],
    ["bigint", 2n ** 63n, "9223372036854775808"],
    ["struct order kept", { b: 1, a: 2 }, '{"b":1,"a":2}'],
    ["undefined members skipped", { a: undefined, b: 1 }, '{"b":1}'],
    [
      "map keys sorted",
      new Map([
        ["b", 1],
        ["a", 2],
      ]),
      '{"a":2,"b":1}',
    ],
    [
      "integer-like map keys sorted as text",
      new Map([
        ["9", 1],
        ["10", 2],
      ]),
      '{"10":2,"9":1}',
    ],
    [
      "map keys by UTF-8, not UTF-16",
      new Map([
        ["😀", 1],
        ["\uffff", 2],
      ]),
      '{"\uffff":2,"😀":1}',
    ],
    [
      "map keys sorted before escaping",
      new Map([
        ["=", 2],
        ["<", 1],
      ]),
      '{"\\u003c":1,"=":2}',
    ],
    ["toJSON", { at: new Date(0) }, '{"at":"1970-01-01T00:00:00.000Z"}'],
  ])("%s", (_, input, expected) => {
    expect(marshalGoJSON(input)).toBe(expected);
  });

  it.each<[string, unknown]>([
    ["NaN", Number.NaN],
    ["Infinity", [Number.POSITIVE_INFINITY]],
    ["undefined", undefined],
    ["a function", { f: () => 1 }],
    ["a non-string map key", new Map([[1, 1]])],
    [
      "map keys equal once valid UTF-8",
      new Map([
        ["\ud800", 1],
        ["\udc00", 2],
      ]),
    ],
  ])("refuses %s", (_, input) => {
    expect(() => marshalGoJSON(input)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });
});

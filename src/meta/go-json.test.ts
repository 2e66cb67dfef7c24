import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { annotationsMergePatchJSON, goJSONString, marshalGoJSON } from "./go-json.js";

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

describe("annotationsMergePatchJSON", () => {
  it("writes Go's bytes: sorted keys, escaped HTML, null deletes", () => {
    expect(annotationsMergePatchJSON({ "vm.cocoonstack.io/hibernate": null, "a/b": "<x>", "10": "y", "9": "z" })).toBe(
      '{"metadata":{"annotations":{"10":"y","9":"z","a/b":"\\u003cx\\u003e","vm.cocoonstack.io/hibernate":null}}}',
    );
  });

  it("differs from JSON.stringify of the patch object exactly where Go's encoder does", () => {
    const delta = { "9": "<", "10": "\u2028" };
    expect(annotationsMergePatchJSON(delta)).toBe('{"metadata":{"annotations":{"10":"\\u2028","9":"\\u003c"}}}');
    expect(JSON.stringify({ metadata: { annotations: delta } })).toBe('{"metadata":{"annotations":{"9":"<","10":"\u2028"}}}');
  });

  it("refuses an empty delta like annotationsMergePatch", () => {
    let error: unknown;
    try {
      annotationsMergePatchJSON({});
    } catch (caught) {
      error = caught;
    }
    expect(isCocoonError(error, "ERR_INVALID_ANNOTATION_DELTA")).toBe(true);
  });
});

describe("Go map keys equal once written as UTF-8", () => {
  it("refuses two keys that differ only in lone surrogates, however far apart", () => {
    const delta = { "a\ud800": "1", b: "2", "a\udfff": "3" };
    expect(() => annotationsMergePatchJSON(delta)).toThrow(
      'patch.metadata.annotations has two keys that are the same once written as UTF-8: "a\ufffd"',
    );
    expect(() => marshalGoJSON(new Map(Object.entries(delta)))).toThrow(/value has two keys .*"a\ufffd"/);
  });

  it("sorts an astral key after U+FFFF, as UTF-8 bytes order them (UTF-16 would not)", () => {
    expect(annotationsMergePatchJSON({ "\u{1F600}": "a", "\uffff": "b", z: "c" })).toBe(
      '{"metadata":{"annotations":{"z":"c","\uffff":"b","\u{1F600}":"a"}}}',
    );
  });

  it("writes a lone-surrogate key as U+FFFD, sorted as Go sorts it", () => {
    expect(annotationsMergePatchJSON({ "\ud800": "x", "\uffff": "y", a: null })).toBe(
      '{"metadata":{"annotations":{"a":null,"\ufffd":"x","\uffff":"y"}}}',
    );
  });
});

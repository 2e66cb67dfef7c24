import { describe, expect, it } from "vitest";
import { MAX_NESTING_DEPTH, parseFirstJSONValue, type JSONNode } from "./json-tree.js";

/** The node as plain JSON, to compare with `JSON.parse` (duplicate keys: last wins). */
function plain(node: JSONNode): unknown {
  switch (node.kind) {
    case "null":
      return null;
    case "true":
      return true;
    case "false":
      return false;
    case "number":
      return Number(node.text);
    case "string":
      return node.value;
    case "array":
      return node.items.map(plain);
    case "object":
      return Object.fromEntries(node.members.map(([k, v]) => [k, plain(v)]));
  }
}

describe("parseFirstJSONValue", () => {
  it.each([
    ["object", '{"a":[1,{"b":2}],"c":"d"}'],
    ["whitespace everywhere", ' \t\r\n{ "a" : [ 1 , 2 ] , "b" : { } , "c" : [ ] }'],
    ["numbers", "[0,-0,1.5,-2e10,3E-2,1e300]"],
    ["escapes", '["\\"\\\\\\/\\b\\f\\n\\r\\t","\\u00e9\\ud83d\\ude00"]'],
    ["literals", "[true,false,null]"],
  ])("reads %s as JSON.parse does", (_, text) => {
    expect(plain(parseFirstJSONValue(text))).toEqual(JSON.parse(text));
  });

  it("stops after the first value and records the span of each", () => {
    const node = parseFirstJSONValue(' {"a": [1, 2] } {"b":1}');
    expect(node).toMatchObject({ kind: "object", start: 1, end: 15 });
    const [, items] = node.kind === "object" ? (node.members[0] as [string, JSONNode]) : ["", node];
    expect(items).toMatchObject({ kind: "array", start: 7, end: 13 });
  });

  it("keeps repeated keys in order", () => {
    const node = parseFirstJSONValue('{"a":1,"a":2}');
    expect(node.kind === "object" && node.members.map(([k]) => k)).toEqual(["a", "a"]);
  });

  it("writes lone surrogate escapes as U+FFFD, as Go's decoder does", () => {
    expect(plain(parseFirstJSONValue('["\\ud800","\\udc00x","\\ud800\\u0041"]'))).toEqual(["\ufffd", "\ufffdx", "\ufffdA"]);
  });

  it("reads Go's 10,000 levels and refuses one more", () => {
    const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
    expect(parseFirstJSONValue(nested(MAX_NESTING_DEPTH)).kind).toBe("array");
    expect(() => parseFirstJSONValue(nested(MAX_NESTING_DEPTH + 1))).toThrow("exceeded max depth");
    expect(() => parseFirstJSONValue(`{"a":${nested(MAX_NESTING_DEPTH)}}`)).toThrow("exceeded max depth");
  });

  it.each([
    ["empty", "", "unexpected EOF"],
    ["unclosed object", '{"a":{}', "unexpected EOF"],
    ["unclosed string", '{"a":"}', "unexpected EOF"],
    ["bad literal", "nul", "invalid character"],
    ["a control character in a string", '"a\nb"', "invalid character"],
    ["a trailing comma", "[1,]", ""],
    ["a leading zero", "[01]", ""],
    ["a control character in a nested string", '{"a":["\t"]}', ""],
    ["a bad escape", '"\\x"', "invalid character"],
    ["a byte-order mark", "\ufeff{}", "invalid character"],
  ])("refuses %s", (_, text, message) => {
    expect(() => parseFirstJSONValue(text)).toThrow(SyntaxError);
    if (message !== "") expect(() => parseFirstJSONValue(text)).toThrow(message);
  });
});

import { describe, expect, it } from "vitest";
import { HeaderFields } from "./header-fields.js";

describe("HeaderFields", () => {
  it("keeps what Headers keeps: lower-cased names, repeats joined with ', ', values trimmed", () => {
    const fields = HeaderFields.of([
      ["Accept", " a/b "],
      ["accept", "c/d"],
      ["X-One", "\t1"],
    ]);
    fields.set("X-ONE", "2");
    expect([...fields]).toEqual([
      ["accept", "a/b, c/d"],
      ["x-one", "2"],
    ]);
    expect([fields.get("ACCEPT"), fields.get("missing"), fields.has("X-one"), fields.has("x-two")]).toEqual([
      "a/b, c/d",
      null,
      true,
      false,
    ]);
  });

  it("reads a record, and any iterable of pairs as a Headers is", () => {
    expect([...HeaderFields.of({ "Content-Type": "x" })]).toEqual([["content-type", "x"]]);
    expect([...HeaderFields.of(new Headers({ "Content-Length": "3" }))]).toEqual([["content-length", "3"]]);
    expect([...HeaderFields.of(undefined)]).toEqual([]);
  });

  it.each([
    ["a CR LF in a value", { a: "b\r\nx-injected: 1" }, 'Headers: invalid value for header "a"'],
    ["a LF in a value", { a: "b\nc" }, 'Headers: invalid value for header "a"'],
    ["a NUL in a value", { a: "b\0c" }, 'Headers: invalid value for header "a"'],
    ["a char past latin1", { a: "b\u0100" }, 'Headers: invalid value for header "a"'],
    ["a name that is not a token", { "a b": "c" }, 'Headers: invalid header name "a b"'],
    ["a name with a colon", { "a:": "c" }, 'Headers: invalid header name "a:"'],
  ])("refuses %s with a TypeError, as Headers does", (_name, init, message) => {
    expect(() => new Headers(init)).toThrow(TypeError);
    expect(() => HeaderFields.of(init)).toThrow(new TypeError(message));
  });
});

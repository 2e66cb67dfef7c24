import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { marshalGoJSON } from "../internal/go/index.js";
import { annotationsMergePatchJSON } from "./annotations-patch-json.js";

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

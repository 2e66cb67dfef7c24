import { describe, expect, it } from "vitest";
import { readGoJSON } from "../internal/go-vectors.test-util.js";
import { isRelativeRef, parseRef } from "./relative-ref.js";

interface RefVector {
  ref: string;
  parseRef: { name: string; tag: string };
  isRelativeRef: boolean;
}
const vectors = readGoJSON<{ refs: RefVector[] }>("registry/ociutil.json").refs;

describe("parseRef", () => {
  it.each([
    ["vm-1:hibernate", "vm-1", "hibernate"],
    ["vm-1", "vm-1", "latest"],
    [":tag", ":tag", "latest"],
    ["localhost:5000/repo", "localhost", "5000/repo"],
    ["a:b:c", "a", "b:c"],
  ])("splits %j at the first colon", (ref, name, tag) => expect(parseRef(ref)).toEqual({ name, tag }));

  it.each([undefined, null, 42, {}, Symbol("x")])("never throws on %s", (value) => {
    expect(parseRef(value as string)).toEqual({ name: "", tag: "latest" });
    expect(isRelativeRef(value)).toBe(false);
  });
});

describe("isRelativeRef", () => {
  it.each([
    ["ns/vm_1:hibernate", true],
    ["a___b", false],
    ["localhost:5000/repo", false],
    ["repo:" + "t".repeat(128), true],
    ["repo:" + "t".repeat(129), false],
    ["repo\n", false],
  ])("%j -> %s", (ref, expected) => expect(isRelativeRef(ref)).toBe(expected));
});

describe("ociutil refs: Go's answers (ociutil.json)", () => {
  it("matches ParseRef and IsRelativeRef on every vector", () => {
    expect(vectors.length).toBe(220);
    const ours = vectors.map((v) => ({ ref: v.ref, parseRef: parseRef(v.ref), isRelativeRef: isRelativeRef(v.ref) }));
    expect(ours).toEqual(vectors.map((v) => ({ ref: v.ref, parseRef: v.parseRef, isRelativeRef: v.isRelativeRef })));
  });
});

import { describe, expect, it } from "vitest";
import { ANCHORS_MISSING, readAnchor } from "./internal/anchors.test-util.js";
import { isRelativeRef, parseRef } from "./relative-ref.js";

interface RefVector {
  ref: string;
  parseRef: { name: string; tag: string };
  isRelativeRef: boolean;
}
const vectors = readAnchor<{ refs: RefVector[] }>("ociutil.json")?.refs;

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

describe.skipIf(vectors === undefined)("ociutil refs: Go's answers (ociutil.json)", () => {
  it("matches ParseRef and IsRelativeRef on every vector", () => {
    const rows = vectors ?? [];
    expect(rows.length).toBe(220);
    const ours = rows.map((v) => ({ ref: v.ref, parseRef: parseRef(v.ref), isRelativeRef: isRelativeRef(v.ref) }));
    expect(ours).toEqual(rows.map((v) => ({ ref: v.ref, parseRef: v.parseRef, isRelativeRef: v.isRelativeRef })));
  });
});
if (vectors === undefined) it.skip(ANCHORS_MISSING, () => undefined);

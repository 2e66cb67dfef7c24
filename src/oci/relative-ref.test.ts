import { describe, expect, it } from "vitest";
import { readGoJSON } from "../internal/go-vectors.test-util.js";
import { referenceErrorOf } from "./internal/reference-error.test-util.js";
import { parseReference } from "./reference.js";
import { isRelativeRef, parseRef } from "./relative-ref.js";

interface RefVector {
  ref: string;
  parseRef: { name: string; tag: string };
  isRelativeRef: boolean;
}
const vectors = readGoJSON<{ refs: RefVector[] }>("registry/ociutil.json").refs;
const DIGEST = `sha256:${"0123456789abcdef".repeat(4)}`;
const CHARS = "repository can only contain the characters `abcdefghijklmnopqrstuvwxyz0123456789_-./`";

describe("parseRef", () => {
  it.each([
    ["vm-1:hibernate", "vm-1", "hibernate"],
    ["vm-1", "vm-1", "latest"],
    ["ns/vm_1:v1.2", "ns/vm_1", "v1.2"],
    ["ghcr.io/vm-1", "ghcr.io/vm-1", "latest"],
    ["a___b", "a___b", "latest"],
    ["repo:.dot", "repo", ".dot"],
  ])("splits %j as Go does", (ref, name, tag) => expect(parseRef(ref)).toEqual({ name, tag }));

  it.each([
    [`vm@${DIGEST}`, `it names the digest ${DIGEST}, not a tag`],
    [`vm:hibernate@${DIGEST}`, `it names the digest ${DIGEST}, not a tag`],
    ["localhost:5000/repo", `${CHARS}: localhost:5000/repo`],
    ["a:b:c", `${CHARS}: a:b`],
    [":tag", "a repository name must be specified"],
    ["", "a repository name must be specified"],
    ["vm:", "vm: must specify a tag name after the colon"],
    ["Repo", `${CHARS}: Repo`],
    ["vm/../x", 'repository can not contain a "." or ".." path component: vm/../x'],
  ])("refuses %j with ERR_INVALID_REFERENCE naming it", (ref, why) => {
    expect(referenceErrorOf(() => parseRef(ref))).toBe(`reference ${JSON.stringify(ref)} is not a registry-relative repo[:tag]: ${why}`);
  });

  it.each([
    [undefined, "undefined"],
    [null, "null"],
    [42, "42"],
    [{}, "[object Object]"],
    [Symbol("x"), "Symbol(x)"],
  ])("refuses %s, never a TypeError", (value, printed) => {
    expect(referenceErrorOf(() => parseRef(value as string))).toBe(
      `reference ${JSON.stringify(printed)} is not a registry-relative repo[:tag]: it must be a string`,
    );
    expect(isRelativeRef(value)).toBe(false);
  });
});

describe("isRelativeRef", () => {
  it.each([
    ["ns/vm_1:hibernate", true],
    ["a___b", false],
    ["repo:.dot", false],
    ["localhost:5000/repo", false],
    [`vm@${DIGEST}`, false],
    ["repo:" + "t".repeat(128), true],
    ["repo:" + "t".repeat(129), false],
    ["a".repeat(256), true],
    ["repo\n", false],
  ])("%j -> %s", (ref, expected) => expect(isRelativeRef(ref)).toBe(expected));
});

describe("ociutil refs: Go's answers (ociutil.json)", () => {
  it("isRelativeRef gives Go's answer on every vector", () => {
    expect(vectors.length).toBe(220);
    expect(vectors.map((v) => ({ ref: v.ref, rel: isRelativeRef(v.ref) }))).toEqual(
      vectors.map((v) => ({ ref: v.ref, rel: v.isRelativeRef })),
    );
  });

  it("parseRef gives Go's split wherever it answers, on every relative one, and refuses the other 140", () => {
    const answered = vectors.filter((v) => referenceErrorOf(() => parseRef(v.ref)) === null);
    expect(answered.map((v) => parseRef(v.ref))).toEqual(answered.map((v) => v.parseRef));
    expect(vectors.filter((v) => v.isRelativeRef).every((v) => answered.includes(v))).toBe(true);
    expect([answered.length, vectors.length - answered.length]).toEqual([80, 140]);
  });

  it("answers as parseReference reads the same text under a registry's base", () => {
    const answered = vectors.filter((v) => referenceErrorOf(() => parseRef(v.ref)) === null);
    // parseReference holds the joined path to 255 characters: Go's 255- and 256-character paths are left out.
    const joined = answered.filter((v) => v.ref.length <= 255 - "ns/".length);
    expect(answered.filter((v) => !joined.includes(v)).map((v) => v.ref.length)).toEqual([255, 256]);
    expect(joined.map((v) => parseRef(v.ref))).toEqual(
      joined.map((v) => {
        const ref = parseReference(`localhost:5000/ns/${v.ref}`);
        return { name: ref.repository.slice("ns/".length), tag: ref.identifier };
      }),
    );
  });
});

import { describe, expect, it } from "vitest";
import { CocoonSetSchema } from "./cocoonset-types.js";
import { cocoonSet } from "./internal/test-fixtures.js";
import { validateCocoonHibernationUpdate, validateCocoonSetUpdate } from "./transition-rules.js";

const IMMUTABLE = { success: false, issues: [{ path: ["spec"], message: "snapshotCompatibilityClass is immutable once set" }] };
const OK = { success: true };

const withClass = (snapshotCompatibilityClass?: string) => ({
  spec: snapshotCompatibilityClass === undefined ? {} : { snapshotCompatibilityClass },
});

// go-contract §1.4, CEL rule 2 (transition rule, has()-based).
describe("validateCocoonSetUpdate: snapshotCompatibilityClass is immutable once set", () => {
  it.each([
    ["unset → unset", undefined, undefined, OK],
    ["unset → set", undefined, "n2", OK],
    ["unset → explicit empty", undefined, "", OK],
    ["same value", "n2", "n2", OK],
    ["changed", "n2", "n3", IMMUTABLE],
    ["removed", "n2", undefined, IMMUTABLE],
    ["set → explicit empty", "n2", "", IMMUTABLE],
    ["explicit empty → explicit empty", "", "", OK],
    ["explicit empty → set (the empty value locks the field)", "", "n2", IMMUTABLE],
    ["explicit empty → removed", "", undefined, IMMUTABLE],
  ])("%s", (_name, before, after, expected) => {
    expect(validateCocoonSetUpdate(withClass(before), withClass(after))).toEqual(expected);
  });

  it("skips the rule when either side has no spec", () => {
    expect(validateCocoonSetUpdate({}, withClass("n2"))).toEqual(OK);
    expect(validateCocoonSetUpdate(withClass("n2"), {})).toEqual(OK);
  });

  it("treats null like an absent key (the apiserver prunes nulls)", () => {
    const nulled = { spec: { snapshotCompatibilityClass: null as unknown as string } };
    expect(validateCocoonSetUpdate(nulled, withClass("n2"))).toEqual(OK);
    expect(validateCocoonSetUpdate(withClass("n2"), nulled)).toEqual(IMMUTABLE);
  });

  it("works on parsed CocoonSets", () => {
    const before = CocoonSetSchema.parse(cocoonSet({ snapshotCompatibilityClass: "n2", agent: { image: "i" } }));
    const after = CocoonSetSchema.parse(cocoonSet({ snapshotCompatibilityClass: "n3", agent: { image: "i" } }));
    expect(validateCocoonSetUpdate(before, after)).toEqual(IMMUTABLE);
    expect(validateCocoonSetUpdate(before, before)).toEqual(OK);
  });
});

// go-contract §1.4, CEL rule 3 (self == oldSelf on spec.podRef).
describe("validateCocoonHibernationUpdate: spec.podRef is immutable", () => {
  const ref = (name?: string) => ({ spec: { podRef: name === undefined ? {} : { name } } });
  it.each([
    ["same pod", ref("a"), ref("a"), OK],
    ["other pod", ref("a"), ref("b"), { success: false, issues: [{ path: ["spec", "podRef"], message: "spec.podRef is immutable" }] }],
    ["name removed", ref("a"), ref(), { success: false, issues: [{ path: ["spec", "podRef"], message: "spec.podRef is immutable" }] }],
    ["no podRef before", { spec: {} }, ref("a"), OK],
    ["no podRef after", ref("a"), { spec: {} }, OK],
    ["no spec", {}, ref("a"), OK],
  ])("%s", (_name, before, after, expected) => {
    expect(validateCocoonHibernationUpdate(before, after)).toEqual(expected);
  });
});

describe("the update validators never throw", () => {
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error("trap");
      },
    },
  );
  const hostile: unknown[] = [null, undefined, 0, "spec", Symbol("s"), 1n, [], { spec: null }, { spec: 7 }, throwing, { spec: throwing }];

  it.each(hostile.map((value) => [typeof value, value]))("CREATE-like: old %s against a set with a class is OK", (_type, value) => {
    expect(validateCocoonSetUpdate(value as null, withClass("n1"))).toEqual(OK);
    expect(validateCocoonHibernationUpdate(value as null, { spec: { podRef: { name: "a" } } })).toEqual(OK);
  });

  it("a null old object (a CREATE admission's oldObject) is no transition", () => {
    expect(validateCocoonSetUpdate(null, withClass("n1"))).toEqual(OK);
    expect(validateCocoonSetUpdate(withClass("n1"), null)).toEqual(OK);
    expect(validateCocoonHibernationUpdate(null, null)).toEqual(OK);
  });

  it("a new object whose class cannot be read counts as removing it", () => {
    const unreadable = {
      spec: {
        get snapshotCompatibilityClass(): string {
          throw new Error("getter");
        },
      },
    };
    expect(validateCocoonSetUpdate(withClass("n1"), unreadable)).toEqual(IMMUTABLE);
  });
});

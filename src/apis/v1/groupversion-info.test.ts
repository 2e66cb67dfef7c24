import { describe, expect, it } from "vitest";
import { API_VERSION, GROUP, Kind, Plural, VERSION, isCocoonHibernation, isCocoonSet } from "./groupversion-info.js";

describe("group version", () => {
  it("matches Go's GroupVersion", () => {
    expect([GROUP, VERSION, API_VERSION]).toEqual(["cocoonset.cocoonstack.io", "v1", "cocoonset.cocoonstack.io/v1"]);
    expect(Kind).toEqual({
      CocoonSet: "CocoonSet",
      CocoonSetList: "CocoonSetList",
      CocoonHibernation: "CocoonHibernation",
      CocoonHibernationList: "CocoonHibernationList",
    });
    expect(Plural).toEqual({ CocoonSet: "cocoonsets", CocoonHibernation: "cocoonhibernations" });
  });
});

describe("GVK guards", () => {
  const set = { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonSet" };
  const hibernation = { apiVersion: "cocoonset.cocoonstack.io/v1", kind: "CocoonHibernation" };
  it.each([
    ["a CocoonSet", set, true, false],
    ["a CocoonHibernation", hibernation, false, true],
    ["another version", { ...set, apiVersion: "cocoonset.cocoonstack.io/v1alpha1" }, false, false],
    ["a lower-case kind", { ...set, kind: "cocoonset" }, false, false],
    ["a list", { ...set, kind: "CocoonSetList" }, false, false],
    ["null", null, false, false],
    ["a string", "CocoonSet", false, false],
  ])("%s", (_name, obj, wantSet, wantHibernation) => {
    expect(isCocoonSet(obj)).toBe(wantSet);
    expect(isCocoonHibernation(obj)).toBe(wantHibernation);
  });
});

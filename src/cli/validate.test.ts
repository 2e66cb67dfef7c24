import { describe, expect, it } from "vitest";
import type { Manifest } from "./manifests.js";
import { oldObjectFinder } from "./validate.js";

const obj = (document: number, kind: string, name: string, namespace?: string): Manifest => ({
  file: "old.yaml",
  document,
  value: { kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } },
  line: 1,
  lineOf: () => 1,
  duplicateKeyLines: [],
});
const findOld = (manifest: Manifest, olds: Manifest[]) => oldObjectFinder(olds)(manifest);

describe("oldObjectFinder", () => {
  const olds = [
    obj(1, "CocoonSet", "demo", "default"),
    obj(2, "CocoonSet", "demo", "prod"),
    obj(3, "CocoonHibernation", "demo", "default"),
    obj(4, "CocoonSet", "solo", "team"),
  ];

  it.each([
    { name: "same kind, namespace and name", manifest: obj(9, "CocoonSet", "demo", "prod"), want: 2 },
    { name: "kind tells objects of the same name apart", manifest: obj(9, "CocoonHibernation", "demo", "default"), want: 3 },
    { name: "no namespace matches the only object of that name", manifest: obj(9, "CocoonSet", "solo"), want: 4 },
    { name: "no namespace with two candidates matches nothing", manifest: obj(9, "CocoonSet", "demo"), want: undefined },
    { name: "another namespace matches nothing", manifest: obj(9, "CocoonSet", "solo", "other"), want: undefined },
    { name: "another name matches nothing", manifest: obj(9, "CocoonSet", "nope", "default"), want: undefined },
  ])("$name", ({ manifest, want }) => {
    expect(findOld(manifest, olds)?.document).toBe(want);
  });

  it("an old object without a namespace matches a manifest with one", () => {
    expect(findOld(obj(9, "CocoonSet", "demo", "default"), [obj(5, "CocoonSet", "demo")])?.document).toBe(5);
  });

  it("the last of duplicate old objects wins", () => {
    expect(
      findOld(obj(9, "CocoonSet", "demo", "default"), [obj(5, "CocoonSet", "demo", "default"), obj(6, "CocoonSet", "demo", "default")])
        ?.document,
    ).toBe(6);
  });
});

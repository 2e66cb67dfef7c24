import { describe, expect, it } from "vitest";
import { ANNOTATION_KINDS, annotationKind } from "./annotation-kinds.js";
import { readCocoonSetGeneration } from "./generation.js";
import { readHibernateState, readKeepSnapshotOnDelete, readRestoreFromHibernate } from "./hibernate.js";
import { readHibernatedOnNode } from "./hibernated-on-node.js";
import { Annotation } from "./keys.js";
import { readLifecycleStatus } from "./lifecycle.js";
import { parseVMRuntime } from "./vmruntime.js";
import { parseVMSpec } from "./vmspec.js";

/** Everything the contract's readers see on an object holding one annotation. */
function readAll(annotations: Record<string, string>): unknown {
  const obj = { metadata: { annotations } };
  return {
    spec: parseVMSpec(obj),
    runtime: parseVMRuntime(obj),
    lifecycle: readLifecycleStatus(obj),
    flags: [readHibernateState(obj), readRestoreFromHibernate(obj), readKeepSnapshotOnDelete(obj)],
    generation: readCocoonSetGeneration(obj),
    node: readHibernatedOnNode(obj),
  };
}
const NOTHING = readAll({});
const readsAs = (key: string, value: string) =>
  JSON.stringify(readAll({ [key]: value }), (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));

// The table must say what the readers do: a drift between them fails one of these rows.
describe("ANNOTATION_KINDS", () => {
  it("has a kind for every annotation of the contract", () => {
    expect(Object.keys(ANNOTATION_KINDS).sort()).toEqual(Object.values(Annotation).sort());
  });

  const rows = Object.entries(ANNOTATION_KINDS).filter(([key]) => key !== Annotation.CloneFromDir); // no reader reads it
  it.each(rows.filter(([, kind]) => kind === "flag"))('%s is a flag: only "true" counts', (key) => {
    expect(readsAs(key, "true")).not.toBe(readsAs(key, "True"));
    expect(readAll({ [key]: "True" })).toEqual(NOTHING);
  });

  it.each(rows.filter(([, kind]) => kind === "int32" || kind === "int64"))("%s is an %s: decimal or zero", (key) => {
    expect(readsAs(key, "7")).toContain(":7");
    expect(readAll({ [key]: "7x" })).toEqual(NOTHING);
  });

  it.each(rows.filter(([, kind]) => kind === "text" || kind === "quantity" || kind === "lifecycle-state"))("%s (%s) is read raw", (key) => {
    expect(readsAs(key, "x-7")).toContain('"x-7"');
  });
});

describe("annotationKind", () => {
  it.each([
    { key: Annotation.Storage, want: "quantity" },
    { key: Annotation.VNCPort, want: "int32" },
    { key: "constructor", want: undefined },
    { key: "vm.cocoonstack.io/nope", want: undefined },
  ])("$key is $want", ({ key, want }) => {
    expect(annotationKind(key)).toBe(want);
  });
});

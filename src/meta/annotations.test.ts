import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { type Annotated, type AnnotationDelta, annotationsMergePatch, annotationsSatisfied, applyAnnotations } from "./annotations.js";

// Skipped Go cases: an older stored k8s/patch_test.go tests StatusMergePatch, and a newer meta/snapshot_test.go
// tests ReadSnapshotAnnotations; cocoon-common v0.3.0 has neither (go-contract.md §8.14).

const HIBERNATE = "vm.cocoonstack.io/hibernate";
const NAME = "vm.cocoonstack.io/name";

function expectDeltaError(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isCocoonError(caught, "ERR_INVALID_ANNOTATION_DELTA"), String(caught)).toBe(true);
}

/** Bad deltas, smuggled past the type system as a plain JavaScript caller would. */
const BAD_DELTAS: [string, unknown][] = [
  ["a number value", { [NAME]: 1 }],
  ["a boolean value", { [NAME]: true }],
  ["an undefined value", { [NAME]: undefined }],
  ["an object value", { [NAME]: {} }],
  ["a good entry then a bad one", { [HIBERNATE]: "true", [NAME]: 42 }],
  ["an empty key", { "": "x" }],
];

describe("annotationsMergePatch (Go k8s TestAnnotationsMergePatch)", () => {
  it("sets a string value and deletes a null one", () => {
    const patch = annotationsMergePatch({ [HIBERNATE]: null, [NAME]: "vk-demo-0" });
    expect(patch).toEqual({ metadata: { annotations: { [HIBERNATE]: null, [NAME]: "vk-demo-0" } } });
    expect(patch.metadata.annotations[NAME]).toBe("vk-demo-0");
    expect(patch.metadata.annotations[HIBERNATE]).toBeNull();
  });

  it("serialises like Go's encoding/json: keys sorted, null kept", () => {
    const patch = annotationsMergePatch({ "z/b": "2", "a/x": null, "m/c": "3" });
    expect(JSON.stringify(patch)).toBe('{"metadata":{"annotations":{"a/x":null,"m/c":"3","z/b":"2"}}}');
  });

  it("holds only metadata.annotations", () => {
    expect(Object.keys(annotationsMergePatch({ [NAME]: "x" }))).toEqual(["metadata"]);
    expect(Object.keys(annotationsMergePatch({ [NAME]: "x" }).metadata)).toEqual(["annotations"]);
  });

  it("does not share the delta object", () => {
    const delta: Record<string, string | null> = { [NAME]: "x" };
    const patch = annotationsMergePatch(delta);
    delta[NAME] = "y";
    expect(patch.metadata.annotations[NAME]).toBe("x");
  });

  // Go's AnnotationsMergePatch(nil) yields {"metadata":{"annotations":null}}, which wipes every
  // annotation (go-contract.md §8.7); the port refuses instead.
  it.each<[string, unknown]>([
    ["an empty delta", {}],
    ["undefined", undefined],
    ["null", null],
    ["an array", []],
    ["a string", "vm.cocoonstack.io/hibernate"],
  ])("refuses %s", (_name, delta) => {
    expectDeltaError(() => annotationsMergePatch(delta as AnnotationDelta));
  });

  it.each(BAD_DELTAS)("refuses %s", (_name, delta) => {
    expectDeltaError(() => annotationsMergePatch(delta as AnnotationDelta));
  });
});

describe("applyAnnotations", () => {
  it("sets string values and deletes null ones, in place", () => {
    const obj: Annotated = { metadata: { annotations: { [HIBERNATE]: "true", keep: "me" } } };
    applyAnnotations(obj, { [HIBERNATE]: null, [NAME]: "vk-0" });
    expect(obj).toEqual({ metadata: { annotations: { keep: "me", [NAME]: "vk-0" } } });
  });

  it("creates metadata and the annotations map for a delta that sets something", () => {
    const obj: Annotated = {};
    applyAnnotations(obj, { [NAME]: "vk-0" });
    expect(obj).toEqual({ metadata: { annotations: { [NAME]: "vk-0" } } });
  });

  it("creates the map for an empty delta (Go's VMSpec/VMRuntime.Apply writing nothing)", () => {
    const obj: Annotated = { metadata: {} };
    applyAnnotations(obj, {});
    expect(obj).toEqual({ metadata: { annotations: {} } });
  });

  it("does not create the map for a delta that only deletes (Go's HibernateState(false).Apply)", () => {
    const obj: Annotated = { metadata: {} };
    applyAnnotations(obj, { [HIBERNATE]: null });
    expect(obj).toEqual({ metadata: {} });
    const bare: Annotated = {};
    applyAnnotations(bare, { [HIBERNATE]: null });
    expect(bare).toEqual({});
  });

  it("creates the map for a mixed delta, deleting nothing that is not there", () => {
    const obj: Annotated = {};
    applyAnnotations(obj, { [HIBERNATE]: null, [NAME]: "x" });
    expect(obj).toEqual({ metadata: { annotations: { [NAME]: "x" } } });
  });

  it("writes an empty string value (it is a value, not a delete)", () => {
    const obj: Annotated = { metadata: { annotations: { [NAME]: "old" } } };
    applyAnnotations(obj, { [NAME]: "" });
    expect(obj.metadata?.annotations).toEqual({ [NAME]: "" });
  });

  it.each(BAD_DELTAS)("validates the whole delta first: %s leaves the object exactly unchanged", (_name, delta) => {
    const obj: Annotated = { metadata: { annotations: { [HIBERNATE]: "true", other: "x" } } };
    const before = structuredClone(obj);
    expectDeltaError(() => applyAnnotations(obj, delta as AnnotationDelta));
    expect(obj).toEqual(before);
  });

  it("a bad delta does not create a missing map either", () => {
    const obj: Annotated = {};
    expectDeltaError(() => applyAnnotations(obj, { [NAME]: "x", [HIBERNATE]: 1 } as unknown as AnnotationDelta));
    expect(obj).toEqual({});
  });

  it.each<[string, unknown]>([
    ["undefined", undefined],
    ["null", null],
    ["an array", []],
  ])("refuses %s as a delta", (_name, delta) => {
    const obj: Annotated = {};
    expectDeltaError(() => applyAnnotations(obj, delta as AnnotationDelta));
    expect(obj).toEqual({});
  });
});

describe("annotationsSatisfied", () => {
  const obj: Annotated = { metadata: { annotations: { [HIBERNATE]: "true", [NAME]: "vk-0" } } };

  it.each<[string, Annotated, AnnotationDelta, boolean]>([
    ["set key with the same value", obj, { [HIBERNATE]: "true" }, true],
    ["set key with another value", obj, { [HIBERNATE]: "false" }, false],
    ["set key that is missing", obj, { other: "x" }, false],
    ["set empty string on a missing key", obj, { other: "" }, false],
    ["deleted key that is absent", obj, { other: null }, true],
    ["deleted key that is present", obj, { [HIBERNATE]: null }, false],
    ["deleted key present with an empty value", { metadata: { annotations: { [HIBERNATE]: "" } } }, { [HIBERNATE]: null }, false],
    ["every entry holds", obj, { [HIBERNATE]: "true", [NAME]: "vk-0", other: null }, true],
    ["one entry of several fails", obj, { [HIBERNATE]: "true", [NAME]: "vk-1" }, false],
    ["empty delta", obj, {}, true],
    ["delete on an object without metadata", {}, { [HIBERNATE]: null }, true],
    ["set on an object without metadata", {}, { [HIBERNATE]: "true" }, false],
    ["delete on an object without annotations", { metadata: {} }, { [HIBERNATE]: null }, true],
  ])("%s", (_name, target, delta, want) => {
    expect(annotationsSatisfied(target, delta)).toBe(want);
  });

  it("agrees with applyAnnotations: after applying, the delta is satisfied", () => {
    const target: Annotated = { metadata: { annotations: { [HIBERNATE]: "true" } } };
    const delta = { [HIBERNATE]: null, [NAME]: "vk-9" };
    expect(annotationsSatisfied(target, delta)).toBe(false);
    applyAnnotations(target, delta);
    expect(annotationsSatisfied(target, delta)).toBe(true);
  });

  it("never mutates the object", () => {
    const target: Annotated = {};
    annotationsSatisfied(target, { [NAME]: "x" });
    expect(target).toEqual({});
  });

  it.each(BAD_DELTAS)("refuses %s", (_name, delta) => {
    expectDeltaError(() => annotationsSatisfied(obj, delta as AnnotationDelta));
  });
});

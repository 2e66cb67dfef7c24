import { describe, expect, it } from "vitest";
import type { Annotated } from "./annotations.js";
import {
  applyHibernateState,
  hibernateStateAnnotations,
  keepSnapshotOnDeleteAnnotations,
  markKeepSnapshotOnDelete,
  markRestoreFromHibernate,
  readHibernateState,
  readKeepSnapshotOnDelete,
  readRestoreFromHibernate,
  restoreFromHibernateAnnotations,
} from "./hibernate.js";
import { Annotation } from "./keys.js";

const withAnnotations = (annotations?: Record<string, string>): Annotated => ({ metadata: { annotations } });

describe("applyHibernateState", () => {
  it('TestHibernateStateApplyTrue: true sets the key to "true"', () => {
    const pod: Annotated = {};
    applyHibernateState(pod, true);
    expect(pod.metadata?.annotations?.[Annotation.Hibernate]).toBe("true");
  });

  it("TestHibernateStateApplyFalseOnNilAnnotations: false on a missing map leaves it missing", () => {
    const pod: Annotated = { metadata: {} };
    applyHibernateState(pod, false);
    expect(pod).toEqual({ metadata: {} });
    expect(pod.metadata?.annotations).toBeUndefined();
  });

  it("TestHibernateStateApplyFalseNilPod: false on an object without metadata creates nothing", () => {
    const pod: Annotated = {};
    applyHibernateState(pod, false);
    expect(pod).toEqual({});
  });

  it('TestHibernateStateApplyFalseRemoves: false deletes the key, never writes "false"', () => {
    const pod = withAnnotations({ [Annotation.Hibernate]: "true", other: "kept" });
    applyHibernateState(pod, false);
    expect(pod.metadata?.annotations).toEqual({ other: "kept" });
    expect(Object.hasOwn(pod.metadata?.annotations ?? {}, Annotation.Hibernate)).toBe(false);
  });

  it("false deletes a garbage value too", () => {
    const pod = withAnnotations({ [Annotation.Hibernate]: "yes" });
    applyHibernateState(pod, false);
    expect(pod.metadata?.annotations).toEqual({});
  });

  it("true overwrites a garbage value", () => {
    const pod = withAnnotations({ [Annotation.Hibernate]: "True" });
    applyHibernateState(pod, true);
    expect(pod.metadata?.annotations).toEqual({ [Annotation.Hibernate]: "true" });
  });
});

describe("hibernateStateAnnotations", () => {
  it.each([
    [true, { "vm.cocoonstack.io/hibernate": "true" }],
    [false, { "vm.cocoonstack.io/hibernate": null }],
  ])("%s gives exactly %j", (state, want) => {
    expect(hibernateStateAnnotations(state)).toEqual(want);
  });
});

describe("readHibernateState (Go TestReadHibernateState, TestReadHibernateStateNilPod)", () => {
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ["missing", undefined, false],
    ["true", { [Annotation.Hibernate]: "true" }, true],
    ["false-string", { [Annotation.Hibernate]: "false" }, false],
    ["empty", { [Annotation.Hibernate]: "" }, false],
    // go-contract.md §2.3: only the exact value "true" counts.
    ["True", { [Annotation.Hibernate]: "True" }, false],
    ["TRUE", { [Annotation.Hibernate]: "TRUE" }, false],
    ["1", { [Annotation.Hibernate]: "1" }, false],
    ["padded", { [Annotation.Hibernate]: " true" }, false],
    ["other key", { [Annotation.RestoreFromHibernate]: "true" }, false],
  ])("%s", (_name, annotations, want) => {
    expect(readHibernateState(withAnnotations(annotations))).toBe(want);
  });

  it("nil pod: an object without metadata reads false", () => {
    expect(readHibernateState({})).toBe(false);
  });
});

describe("restore-from-hibernate (Go TestMarkRestoreFromHibernate)", () => {
  it("a fresh pod is not flagged; marking round-trips through the reader", () => {
    const pod: Annotated = {};
    expect(readRestoreFromHibernate(pod)).toBe(false);
    markRestoreFromHibernate(pod);
    expect(readRestoreFromHibernate(pod)).toBe(true);
    expect(pod).toEqual({ metadata: { annotations: { "vm.cocoonstack.io/restore-from-hibernate": "true" } } });
  });

  it("the delta only ever sets the flag", () => {
    expect(restoreFromHibernateAnnotations()).toEqual({ "vm.cocoonstack.io/restore-from-hibernate": "true" });
  });

  it.each([["True"], ["1"], ["false"], [""]])("reads %j as false", (value) => {
    expect(readRestoreFromHibernate(withAnnotations({ [Annotation.RestoreFromHibernate]: value }))).toBe(false);
  });
});

describe("keep-snapshot-on-delete", () => {
  it("a fresh pod is not flagged; marking round-trips through the reader", () => {
    const pod: Annotated = { metadata: {} };
    expect(readKeepSnapshotOnDelete(pod)).toBe(false);
    markKeepSnapshotOnDelete(pod);
    expect(readKeepSnapshotOnDelete(pod)).toBe(true);
    expect(pod).toEqual({ metadata: { annotations: { "vm.cocoonstack.io/keep-snapshot-on-delete": "true" } } });
  });

  it("the delta only ever sets the flag", () => {
    expect(keepSnapshotOnDeleteAnnotations()).toEqual({ "vm.cocoonstack.io/keep-snapshot-on-delete": "true" });
  });

  it.each([["True"], ["yes"], ["false"], [""]])("reads %j as false", (value) => {
    expect(readKeepSnapshotOnDelete(withAnnotations({ [Annotation.KeepSnapshotOnDelete]: value }))).toBe(false);
  });

  it("marking keeps other annotations", () => {
    const pod = withAnnotations({ a: "b" });
    markKeepSnapshotOnDelete(pod);
    expect(pod.metadata?.annotations).toEqual({ a: "b", [Annotation.KeepSnapshotOnDelete]: "true" });
  });
});

import { describe, expect, it } from "vitest";
import { type Annotated, annotationsMergePatch } from "./annotations.js";
import { clearHibernatedOnNode, hibernatedOnNodeAnnotations, readHibernatedOnNode, stashHibernatedOnNode } from "./hibernated-on-node.js";

// The Go library has no helper for this key: the operator reads cs.Annotations[key] and writes it
// with a raw merge patch, sending null for "" (go-contract.md §6.2). These tests pin that behaviour.
const KEY = "cocoonset.cocoonstack.io/hibernated-on-node";

describe("readHibernatedOnNode", () => {
  it.each<[string, Annotated, string]>([
    ["no metadata", {}, ""],
    ["no annotations", { metadata: {} }, ""],
    ["set", { metadata: { annotations: { [KEY]: "node-a" } } }, "node-a"],
    ["empty", { metadata: { annotations: { [KEY]: "" } } }, ""],
  ])("%s", (_name, set, want) => {
    expect(readHibernatedOnNode(set)).toBe(want);
  });
});

describe("hibernatedOnNodeAnnotations", () => {
  it.each<[string, string | null | undefined, string | null]>([
    ["a node sets the key", "node-a", "node-a"],
    ["null deletes the key", null, null],
    ["undefined (an unscheduled pod's spec?.nodeName) deletes the key", undefined, null],
    ['an empty node deletes the key, as the operator sends null for ""', "", null],
  ])("%s", (_name, node, want) => {
    expect(hibernatedOnNodeAnnotations(node)).toEqual({ [KEY]: want });
  });

  it("stash body is the operator's merge patch", () => {
    expect(JSON.stringify(annotationsMergePatch(hibernatedOnNodeAnnotations("node-a")))).toBe(
      '{"metadata":{"annotations":{"cocoonset.cocoonstack.io/hibernated-on-node":"node-a"}}}',
    );
  });

  it("clear body is the operator's merge patch", () => {
    expect(JSON.stringify(annotationsMergePatch(hibernatedOnNodeAnnotations(null)))).toBe(
      '{"metadata":{"annotations":{"cocoonset.cocoonstack.io/hibernated-on-node":null}}}',
    );
  });
});

describe("stashHibernatedOnNode / clearHibernatedOnNode", () => {
  it("stash writes the node, creating the map, and clear removes it", () => {
    const set: Annotated = {};
    stashHibernatedOnNode(set, "node-a");
    expect(set).toEqual({ metadata: { annotations: { [KEY]: "node-a" } } });
    expect(readHibernatedOnNode(set)).toBe("node-a");
    clearHibernatedOnNode(set);
    expect(set).toEqual({ metadata: { annotations: {} } });
    expect(readHibernatedOnNode(set)).toBe("");
  });

  it("clear keeps other annotations and does not create a missing map", () => {
    const set: Annotated = { metadata: { annotations: { [KEY]: "n", other: "x" } } };
    clearHibernatedOnNode(set);
    expect(set.metadata?.annotations).toEqual({ other: "x" });
    const bare: Annotated = { metadata: {} };
    clearHibernatedOnNode(bare);
    expect(bare).toEqual({ metadata: {} });
  });

  it("stashing an empty node clears the hint", () => {
    const set: Annotated = { metadata: { annotations: { [KEY]: "n" } } };
    stashHibernatedOnNode(set, "");
    expect(set.metadata?.annotations).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { preferredHostnameAffinity, requiredHostnameAffinity } from "./affinity.js";

function expectArgumentError(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isCocoonError(caught, "ERR_INVALID_ARGUMENT"), String(caught)).toBe(true);
}

// Wire forms from go-contract.md §6.3 (cocoon-operator cocoonset/pods.go), whitespace removed.
const PREFERRED =
  '{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[' +
  '{"weight":100,"preference":{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["<nodeName>"]}]}}' +
  "]}}";
const REQUIRED =
  '{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[' +
  '{"matchExpressions":[{"key":"kubernetes.io/hostname","operator":"In","values":["<nodeName>"]}]}' +
  "]}}}";

describe("preferredHostnameAffinity", () => {
  it("serialises exactly as the operator's preferredHostnameAffinity", () => {
    expect(JSON.stringify(preferredHostnameAffinity("<nodeName>"))).toBe(PREFERRED);
    expect(JSON.stringify(preferredHostnameAffinity("node-a"))).toBe(PREFERRED.replace("<nodeName>", "node-a"));
  });

  it("takes a weight", () => {
    expect(JSON.stringify(preferredHostnameAffinity("n", 1))).toBe(
      PREFERRED.replace('"weight":100', '"weight":1').replace("<nodeName>", "n"),
    );
    expect(preferredHostnameAffinity("n", 50).nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight).toBe(50);
  });

  it("returns a fresh object each call", () => {
    const a = preferredHostnameAffinity("n");
    const b = preferredHostnameAffinity("n");
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values).not.toBe(
      b.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values,
    );
  });

  it.each<[string, number]>([
    ["0", 0],
    ["101", 101],
    ["1.5", 1.5],
    ["-1", -1],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
  ])("rejects weight %s with ERR_INVALID_ARGUMENT", (_name, weight) => {
    expectArgumentError(() => preferredHostnameAffinity("node-a", weight));
  });

  it("rejects an empty node with ERR_INVALID_ARGUMENT", () => {
    expectArgumentError(() => preferredHostnameAffinity(""));
  });

  it.each<[string, unknown]>([
    ["undefined", undefined],
    ["null", null],
    ["a number", 1],
  ])("rejects %s as node from an untyped caller", (_name, node) => {
    expectArgumentError(() => preferredHostnameAffinity(node as string));
  });
});

describe("requiredHostnameAffinity", () => {
  it("serialises exactly as the operator's hostnameAffinity", () => {
    expect(JSON.stringify(requiredHostnameAffinity("<nodeName>"))).toBe(REQUIRED);
    expect(JSON.stringify(requiredHostnameAffinity("node-b"))).toBe(REQUIRED.replace("<nodeName>", "node-b"));
  });

  it("rejects an empty node with ERR_INVALID_ARGUMENT", () => {
    expectArgumentError(() => requiredHostnameAffinity(""));
  });
});

import { describe, expect, it } from "vitest";
import type { OwnerReferenceLike, TolerationLike } from "./objects.js";
import { cocoonSetOwnerName, hasCocoonTolerationKey, isOwnedByCocoonSet } from "./owner.js";

// Skipped Go case: an older stored meta_test.go tests OwnerDeploymentName, which cocoon-common v0.3.0 no longer has.

describe("hasCocoonTolerationKey (Go TestHasCocoonTolerationKey)", () => {
  it.each<[string, readonly TolerationLike[] | undefined, boolean]>([
    ["toleration detected", [{ key: "virtual-kubelet.io/provider" }], true],
    ["nil tolerations rejected", undefined, false],
    ["unrelated toleration rejected", [{ key: "other" }], false],
    ["empty list rejected", [], false],
    ["found after others", [{ key: "node.kubernetes.io/not-ready" }, { key: "virtual-kubelet.io/provider" }], true],
    ["a toleration without a key", [{}], false],
    ["key is case-sensitive", [{ key: "Virtual-Kubelet.io/provider" }], false],
  ])("%s", (_name, tolerations, want) => {
    expect(hasCocoonTolerationKey(tolerations)).toBe(want);
  });

  it("ignores operator, value and effect", () => {
    const toleration = { key: "virtual-kubelet.io/provider", operator: "Equal", value: "x", effect: "NoSchedule" };
    expect(hasCocoonTolerationKey([toleration])).toBe(true);
  });
});

describe("cocoonSetOwnerName / isOwnedByCocoonSet", () => {
  it.each<[string, readonly OwnerReferenceLike[] | undefined, string]>([
    ["no owners", undefined, ""],
    ["empty list", [], ""],
    ["CocoonSet owner", [{ kind: "CocoonSet", name: "x" }], "x"],
    ["non-CocoonSet owner", [{ kind: "ReplicaSet", name: "x" }], ""],
    [
      "CocoonSet after another owner",
      [
        { kind: "ReplicaSet", name: "rs" },
        { kind: "CocoonSet", name: "cs" },
      ],
      "cs",
    ],
    [
      "first CocoonSet kind wins",
      [
        { kind: "CocoonSet", name: "first" },
        { kind: "CocoonSet", name: "second" },
      ],
      "first",
    ],
    // Go returns the first match's name even when empty, so a later named CocoonSet owner is not reached.
    [
      "first CocoonSet with an empty name hides a later one",
      [
        { kind: "CocoonSet", name: "" },
        { kind: "CocoonSet", name: "second" },
      ],
      "",
    ],
    ["empty name", [{ kind: "CocoonSet", name: "" }], ""],
    ["missing name", [{ kind: "CocoonSet" }], ""],
    ["kind is case-sensitive", [{ kind: "cocoonset", name: "x" }], ""],
  ])("%s", (_name, owners, want) => {
    expect(cocoonSetOwnerName(owners)).toBe(want);
    expect(isOwnedByCocoonSet(owners)).toBe(want !== "");
  });

  it("ignores apiVersion, controller and uid", () => {
    const owner = { apiVersion: "other.example.com/v9", kind: "CocoonSet", name: "cs", controller: false, uid: "" };
    expect(cocoonSetOwnerName([owner])).toBe("cs");
    expect(isOwnedByCocoonSet([owner])).toBe(true);
  });

  it("reads a reference whose read throws as Go's zero reference, and goes on to the next", () => {
    const hostile = (key: string): OwnerReferenceLike =>
      Object.defineProperty({ kind: "CocoonSet", name: "first" }, key, {
        get: () => {
          throw new Error("hostile getter");
        },
      });
    expect(cocoonSetOwnerName([hostile("kind"), { kind: "CocoonSet", name: "cs" }])).toBe("cs");
    expect(cocoonSetOwnerName([hostile("name"), { kind: "CocoonSet", name: "cs" }])).toBe("");
    const revoked = Proxy.revocable([], {});
    revoked.revoke();
    expect(cocoonSetOwnerName(revoked.proxy as OwnerReferenceLike[])).toBe("");
  });

  // cocoon-webhook TestIsOwnedByCocoonSet, which calls meta.IsOwnedByCocoonSet.
  it("webhook: a CocoonSet ownerref is detected, a ReplicaSet one is not", () => {
    expect(isOwnedByCocoonSet([{ kind: "CocoonSet", name: "x" }])).toBe(true);
    expect(isOwnedByCocoonSet([{ kind: "ReplicaSet", name: "x" }])).toBe(false);
  });
});

// Go decodes a JSON null list item to a zero value (kind "", key ""), which matches nothing.
describe("owner readers on null list items (Go reads zero values)", () => {
  const list = <T>(json: string): readonly T[] => JSON.parse(json) as readonly T[];

  it.each<[string, string, string]>([
    ["[null]", "[null]", ""],
    ["null before a CocoonSet owner", '[null,{"kind":"CocoonSet","name":"cs"}]', "cs"],
    ["a name that is not a string reads as empty", '[{"kind":"CocoonSet","name":7}]', ""],
    ["not a list", '{"kind":"CocoonSet","name":"cs"}', ""],
  ])("cocoonSetOwnerName: %s", (_name, json, want) => {
    expect(cocoonSetOwnerName(list<OwnerReferenceLike>(json))).toBe(want);
    expect(isOwnedByCocoonSet(list<OwnerReferenceLike>(json))).toBe(want !== "");
  });

  it.each<[string, string, boolean]>([
    ["[null]", "[null]", false],
    ["null before the key", '[null,{"key":"virtual-kubelet.io/provider"}]', true],
    ["a key that is not a string", '[{"key":["virtual-kubelet.io/provider"]}]', false],
  ])("hasCocoonTolerationKey: %s", (_name, json, want) => {
    expect(hasCocoonTolerationKey(list<TolerationLike>(json))).toBe(want);
  });
});

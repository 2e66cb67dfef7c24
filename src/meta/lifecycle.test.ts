import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import { readWithPollutedPrototype } from "../internal/polluted-prototype.test-util.js";
import { type Annotated, annotationsMergePatch } from "./annotations.js";
import type { Int64 } from "./generation.js";
import { Annotation } from "./keys.js";
import {
  LifecycleState,
  type LifecycleStatus,
  applyLifecycleStatus,
  isTerminalLifecycleState,
  lifecycleStatusAnnotations,
  lifecycleStatusKey,
  readLifecycleObservedGeneration,
  readLifecycleState,
  readLifecycleStatus,
} from "./lifecycle.js";

const STATE = "vm.cocoonstack.io/lifecycle-state";
const GENERATION = "vm.cocoonstack.io/lifecycle-observed-generation";
const MESSAGE = "vm.cocoonstack.io/lifecycle-state-message";

const withAnnotations = (annotations?: Record<string, string>): Annotated => ({ metadata: { annotations } });
const status = (state: string, observedGeneration: Int64 = 0, message = ""): LifecycleStatus => ({ state, observedGeneration, message });

describe("isTerminalLifecycleState (Go TestLifecycleStateIsTerminal)", () => {
  it.each([
    [LifecycleState.Creating, false],
    [LifecycleState.Hibernating, false],
    [LifecycleState.Ready, true],
    [LifecycleState.Hibernated, true],
    [LifecycleState.Failed, true],
    ["", false],
    ["unknown", false],
    // Exact, case-sensitive (go-contract.md §7.4).
    ["Ready", false],
    ["READY", false],
    [" ready", false],
  ])("%j is terminal: %s", (state, want) => {
    expect(isTerminalLifecycleState(state)).toBe(want);
  });
});

describe("applyLifecycleStatus (Go TestLifecycleStatusApply)", () => {
  it("writes triple", () => {
    const pod: Annotated = {};
    applyLifecycleStatus(pod, status(LifecycleState.Ready, 7, "ok"));
    expect(pod.metadata?.annotations).toEqual({ [STATE]: "ready", [GENERATION]: "7", [MESSAGE]: "ok" });
  });

  it("empty message deletes annotation", () => {
    const pod = withAnnotations({ [MESSAGE]: "stale" });
    applyLifecycleStatus(pod, status(LifecycleState.Ready, 9));
    expect(pod.metadata?.annotations).toEqual({ [STATE]: "ready", [GENERATION]: "9" });
  });

  it("an empty message deletes only the message key; other keys stay", () => {
    const pod = withAnnotations({ [MESSAGE]: "stale", [Annotation.VMID]: "vm-1", [STATE]: "failed" });
    applyLifecycleStatus(pod, status(LifecycleState.Creating, 2));
    expect(pod.metadata?.annotations).toEqual({ [STATE]: "creating", [GENERATION]: "2", [Annotation.VMID]: "vm-1" });
  });

  it('an empty state is written as "", not deleted', () => {
    const pod = withAnnotations({ [STATE]: "ready" });
    applyLifecycleStatus(pod, status(""));
    expect(pod.metadata?.annotations).toEqual({ [STATE]: "", [GENERATION]: "0" });
  });

  it("creates the map even for the zero status", () => {
    const pod: Annotated = {};
    applyLifecycleStatus(pod, status(""));
    expect(pod).toEqual({ metadata: { annotations: { [STATE]: "", [GENERATION]: "0" } } });
  });

  it("writes a negative generation in decimal", () => {
    const pod: Annotated = {};
    applyLifecycleStatus(pod, status("failed", -1, "x"));
    expect(pod.metadata?.annotations?.[GENERATION]).toBe("-1");
  });

  it("a rejected generation leaves the object unchanged", () => {
    const pod = withAnnotations({ [MESSAGE]: "stale" });
    expect(() => applyLifecycleStatus(pod, status("ready", 1.5))).toThrow();
    expect(pod.metadata?.annotations).toEqual({ [MESSAGE]: "stale" });
  });
});

describe("lifecycleStatusAnnotations (Go TestLifecycleStatusPatchPayload; Annotations() in v0.3.0)", () => {
  it.each<[string, LifecycleStatus, Record<string, string | null>]>([
    ["with message", status(LifecycleState.Failed, 3, "boom"), { [STATE]: "failed", [GENERATION]: "3", [MESSAGE]: "boom" }],
    ["empty message deletes via nil", status(LifecycleState.Ready, 1), { [STATE]: "ready", [GENERATION]: "1", [MESSAGE]: null }],
    ["zero status", status(""), { [STATE]: "", [GENERATION]: "0", [MESSAGE]: null }],
    ["bigint generation", status("ready", 9007199254740993n), { [STATE]: "ready", [GENERATION]: "9007199254740993", [MESSAGE]: null }],
    ["negative generation", status("ready", -1), { [STATE]: "ready", [GENERATION]: "-1", [MESSAGE]: null }],
    ["unknown state passes through", status("weird", 2, "m"), { [STATE]: "weird", [GENERATION]: "2", [MESSAGE]: "m" }],
  ])("%s", (_name, input, want) => {
    const got = lifecycleStatusAnnotations(input);
    expect(Object.keys(got)).toHaveLength(3);
    expect(got).toEqual(want);
  });

  it("an empty message is a null entry, present, not omitted", () => {
    const got = lifecycleStatusAnnotations(status("ready", 1));
    expect(Object.hasOwn(got, MESSAGE)).toBe(true);
    expect(got[MESSAGE]).toBeNull();
  });

  it("goes on the wire as Go's merge patch, keys sorted", () => {
    expect(JSON.stringify(annotationsMergePatch(lifecycleStatusAnnotations(status("ready", 4))))).toBe(
      '{"metadata":{"annotations":{"vm.cocoonstack.io/lifecycle-observed-generation":"4","vm.cocoonstack.io/lifecycle-state":"ready","vm.cocoonstack.io/lifecycle-state-message":null}}}',
    );
  });

  it.each<[string, Int64]>([
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["2**60 as a number", 2 ** 60],
    ["2n**63n", 2n ** 63n],
  ])("rejects generation %s with ERR_INVALID_INTEGER", (_name, generation) => {
    let caught: unknown;
    try {
      lifecycleStatusAnnotations(status("ready", generation));
    } catch (err) {
      caught = err;
    }
    expect(isCocoonError(caught, "ERR_INVALID_INTEGER")).toBe(true);
  });
});

describe("lifecycleStatusKey (Go TestLifecycleStatusSnapshot)", () => {
  it.each<[string, LifecycleStatus, string]>([
    ["empty", status(""), "\x000\x00"],
    ["populated", status(LifecycleState.Ready, 7, "ok"), "ready\x007\x00ok"],
    ["message with pipe", status(LifecycleState.Failed, 0, "a|b"), "failed\x000\x00a|b"],
    ["negative generation", status("ready", -2), "ready\x00-2\x00"],
    ["bigint generation", status("ready", 9223372036854775807n), "ready\x009223372036854775807\x00"],
  ])("%s", (_name, input, want) => {
    expect(lifecycleStatusKey(input)).toBe(want);
  });

  it("TestSnapshotDistinguishesAdjacentValues", () => {
    expect(lifecycleStatusKey(status("ab", 0, "c"))).not.toBe(lifecycleStatusKey(status("a", 0, "bc")));
  });

  it("the same generation as number or bigint gives the same key", () => {
    expect(lifecycleStatusKey(status("ready", 5))).toBe(lifecycleStatusKey(status("ready", 5n)));
  });
});

describe("readLifecycleStatus (Go TestReadLifecycleStatus)", () => {
  it.each<[string, Annotated, LifecycleStatus]>([
    ["nil pod", {}, status("")],
    ["empty pod", { metadata: {} }, status("")],
    ["populated", withAnnotations({ [STATE]: "ready", [GENERATION]: "11", [MESSAGE]: "ok" }), status(LifecycleState.Ready, 11, "ok")],
    ["raw state, bad generation", withAnnotations({ [STATE]: "Bogus", [GENERATION]: " 3" }), status("Bogus", 0)],
    ["generation past 2^53", withAnnotations({ [GENERATION]: "9007199254740993" }), status("", 9007199254740993n)],
  ])("%s", (_name, pod, want) => {
    expect(readLifecycleStatus(pod)).toEqual(want);
  });

  it("round-trips what applyLifecycleStatus wrote", () => {
    const pod: Annotated = {};
    const written = status(LifecycleState.Hibernated, 12, "done");
    applyLifecycleStatus(pod, written);
    expect(readLifecycleStatus(pod)).toEqual(written);
    expect(lifecycleStatusKey(readLifecycleStatus(pod))).toBe(lifecycleStatusKey(written));
  });

  it("reads own keys only, and a key whose read throws as missing, the others still read", () => {
    const inherited = Object.create({ [STATE]: "ready", [MESSAGE]: "from the prototype" }) as Record<string, string>;
    inherited[GENERATION] = "4";
    expect(readLifecycleStatus({ metadata: { annotations: inherited } })).toEqual(status("", 4));
    const throwing = { [GENERATION]: "5", [MESSAGE]: "kept" };
    Object.defineProperty(throwing, STATE, {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(readLifecycleStatus({ metadata: { annotations: throwing } })).toEqual(status("", 5, "kept"));
  });

  it("never counts a key Object.prototype gains after the reader was optimized", () => {
    const pod = withAnnotations({ [GENERATION]: "4" });
    const read = () => readLifecycleStatus(pod);
    expect(readWithPollutedPrototype(read, { [STATE]: "ready", [MESSAGE]: "polluted" })).toEqual(status("", 4));
    expect(readWithPollutedPrototype(read, { [GENERATION]: "9" })).toEqual(status("", 4));
    expect(read()).toEqual(status("", 4));
  });

  it("reads a map without a prototype, and a map whose prototype is Object.prototype's child, by own keys", () => {
    const bare = Object.assign(Object.create(null) as Record<string, string>, { [STATE]: "ready", [GENERATION]: "2" });
    expect(readLifecycleStatus({ metadata: { annotations: bare } })).toEqual(status("ready", 2));
    const child = Object.assign(Object.create({ [MESSAGE]: "inherited" }) as Record<string, string>, { [STATE]: "failed" });
    expect(readLifecycleStatus({ metadata: { annotations: child } })).toEqual(status("failed"));
  });
});

describe("readLifecycleState (Go TestReadLifecycleState)", () => {
  it.each<[string, Annotated, string]>([
    ["nil pod", {}, ""],
    ["missing annotation", { metadata: {} }, ""],
    ["set", withAnnotations({ [STATE]: "ready" }), LifecycleState.Ready],
    ["raw, unvalidated", withAnnotations({ [STATE]: "READY" }), "READY"],
  ])("%s", (_name, pod, want) => {
    expect(readLifecycleState(pod)).toBe(want);
  });
});

describe("readLifecycleObservedGeneration (Go TestReadLifecycleObservedGeneration)", () => {
  it.each<[string, Annotated, Int64]>([
    ["nil pod", {}, 0],
    ["missing", { metadata: {} }, 0],
    ["valid", withAnnotations({ [GENERATION]: "42" }), 42],
    ["unparseable falls back to zero", withAnnotations({ [GENERATION]: "abc" }), 0],
    ["leading zeros", withAnnotations({ [GENERATION]: "007" }), 7],
    ["plus sign", withAnnotations({ [GENERATION]: "+42" }), 42],
    ["leading space", withAnnotations({ [GENERATION]: " 42" }), 0],
    ["past 2^53, exact", withAnnotations({ [GENERATION]: "9007199254740993" }), 9007199254740993n],
    ["past int64", withAnnotations({ [GENERATION]: "9223372036854775808" }), 0],
    ["exponent", withAnnotations({ [GENERATION]: "1e3" }), 0],
  ])("%s", (_name, pod, want) => {
    expect(readLifecycleObservedGeneration(pod)).toBe(want);
  });
});

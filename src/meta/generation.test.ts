import { describe, expect, it } from "vitest";
import { isCocoonError } from "../errors.js";
import type { Annotated } from "./annotations.js";
import { type Int64, cocoonSetGenerationAnnotations, readCocoonSetGeneration, stampCocoonSetGeneration } from "./generation.js";
import { Annotation } from "./keys.js";

const KEY = "cocoonset.cocoonstack.io/generation";
const withGeneration = (value: string): Annotated => ({ metadata: { annotations: { [KEY]: value } } });

function expectIntegerError(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(isCocoonError(caught, "ERR_INVALID_INTEGER"), String(caught)).toBe(true);
}

/**
 * readInt64Annotation = strconv.ParseInt(v, 10, 64), any error reads as 0 (go-contract.md §2.3, §7.2).
 * Values past ±(2^53 − 1) come back as an exact bigint.
 */
const INT64_READ_CASES: [string, Int64][] = [
  ["0", 0],
  ["7", 7],
  ["42", 42],
  ["007", 7],
  ["+42", 42],
  ["-3", -3],
  ["-0", 0],
  ["+0", 0],
  ["9007199254740991", 9007199254740991],
  ["-9007199254740991", -9007199254740991],
  ["9007199254740992", 9007199254740992n],
  ["9007199254740993", 9007199254740993n],
  ["9223372036854775807", 9223372036854775807n],
  ["-9223372036854775808", -9223372036854775808n],
  ["0009223372036854775807", 9223372036854775807n],
  // Out of int64 range: Go's ParseInt errors (returning the clamped value), and the reader gives 0.
  ["9223372036854775808", 0],
  ["-9223372036854775809", 0],
  ["99999999999999999999999", 0],
  // Not Go integers.
  [" 42", 0],
  ["42 ", 0],
  ["\t42", 0],
  ["4 2", 0],
  ["1_0", 0],
  ["0x1", 0],
  ["0x2a", 0],
  ["0b1", 0],
  ["0o7", 0],
  ["1e3", 0],
  ["42.0", 0],
  ["42.", 0],
  [".5", 0],
  ["abc", 0],
  ["42abc", 0],
  ["+", 0],
  ["-", 0],
  ["++1", 0],
  ["+-1", 0],
  ["--1", 0],
  ["٤٢", 0],
  ["４２", 0],
  ["Infinity", 0],
  ["NaN", 0],
];

describe("readCocoonSetGeneration (Go TestReadCocoonSetGeneration)", () => {
  it("nil pod: an object without metadata reads 0", () => {
    expect(readCocoonSetGeneration({})).toBe(0);
  });

  it("missing: an object without the annotation reads 0", () => {
    expect(readCocoonSetGeneration({ metadata: { annotations: {} } })).toBe(0);
  });

  it('valid: "7" reads 7', () => {
    expect(readCocoonSetGeneration(withGeneration("7"))).toBe(7);
  });

  it("empty string reads 0", () => {
    expect(readCocoonSetGeneration(withGeneration(""))).toBe(0);
  });

  it.each(INT64_READ_CASES)("%j reads %s", (raw, want) => {
    expect(readCocoonSetGeneration(withGeneration(raw))).toBe(want);
  });

  it("reads a number, not a bigint, inside the safe range", () => {
    expect(typeof readCocoonSetGeneration(withGeneration("9007199254740991"))).toBe("number");
  });

  it('reads a value that is not a string as "", so 0', () => {
    for (const value of [7, 7n, true, null, ["7"], { toString: () => "7" }]) {
      const obj = { metadata: { annotations: { [Annotation.CocoonSetGeneration]: value } } };
      expect(readCocoonSetGeneration(obj as unknown as Annotated)).toBe(0);
    }
  });

  it("never reads a key inherited from the prototype", () => {
    const annotations = Object.create({ [Annotation.CocoonSetGeneration]: "7" }) as Record<string, string>;
    expect(readCocoonSetGeneration({ metadata: { annotations } })).toBe(0);
  });

  it("reads 256 KiB of leading zeros before the digits, as Go does", () => {
    expect(readCocoonSetGeneration(withGeneration(`${"0".repeat(262_144)}9223372036854775807`))).toBe(9223372036854775807n);
    expect(readCocoonSetGeneration(withGeneration(`-${"0".repeat(262_144)}7`))).toBe(-7);
    expect(readCocoonSetGeneration(withGeneration("9".repeat(262_144)))).toBe(0);
  });
});

describe("cocoonSetGenerationAnnotations", () => {
  it.each<[Int64, string]>([
    [0, "0"],
    [7, "7"],
    [42, "42"],
    [-1, "-1"],
    [-0, "0"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
    [Number.MIN_SAFE_INTEGER, "-9007199254740991"],
    [0n, "0"],
    [2n ** 60n, "1152921504606846976"],
    [9007199254740993n, "9007199254740993"],
    [9223372036854775807n, "9223372036854775807"],
    [-9223372036854775808n, "-9223372036854775808"],
  ])("%s gives %j", (generation, want) => {
    expect(cocoonSetGenerationAnnotations(generation)).toEqual({ [KEY]: want });
  });

  it.each<[string, Int64]>([
    ["1.5", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
    ["2**60 as a number (past the safe range)", 2 ** 60],
    ["MAX_SAFE_INTEGER + 1 as a number", Number.MAX_SAFE_INTEGER + 1],
    ["2n**63n (past int64)", 2n ** 63n],
    ["-(2n**63n) - 1n (past int64)", -(2n ** 63n) - 1n],
  ])("rejects %s with ERR_INVALID_INTEGER", (_name, generation) => {
    expectIntegerError(() => cocoonSetGenerationAnnotations(generation));
  });

  it.each<[string, unknown]>([
    ["a string", "7"],
    ["undefined", undefined],
    ["null", null],
  ])("rejects %s from an untyped caller", (_name, generation) => {
    expect(() => cocoonSetGenerationAnnotations(generation as Int64)).toThrow();
  });
});

describe("stampCocoonSetGeneration (Go TestStampCocoonSetGeneration)", () => {
  it('writes 42 as "42", creating the map', () => {
    const pod: Annotated = {};
    stampCocoonSetGeneration(pod, 42);
    expect(pod.metadata?.annotations?.[Annotation.CocoonSetGeneration]).toBe("42");
    expect(pod).toEqual({ metadata: { annotations: { [KEY]: "42" } } });
  });

  it("overwrites an existing value and keeps other keys", () => {
    const pod: Annotated = { metadata: { annotations: { [KEY]: "1", other: "x" } } };
    stampCocoonSetGeneration(pod, 2);
    expect(pod.metadata?.annotations).toEqual({ [KEY]: "2", other: "x" });
  });

  it("round-trips a generation past 2^53 exactly", () => {
    const pod: Annotated = {};
    stampCocoonSetGeneration(pod, 9007199254740993n);
    expect(readCocoonSetGeneration(pod)).toBe(9007199254740993n);
  });

  it("a rejected generation leaves the object unchanged", () => {
    const pod: Annotated = {};
    expectIntegerError(() => stampCocoonSetGeneration(pod, 1.5));
    expect(pod).toEqual({});
  });
});

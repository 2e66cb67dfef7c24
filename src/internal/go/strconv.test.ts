import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { atoi, formatInt, int64ToNumberOrBigInt, parseBool, parseInt32, parseInt64, shortDecimal, toGoInteger } from "./strconv.js";

// Every expected value below is what Go's strconv returned for the same input (go 1.26).

describe("parseInt64", () => {
  // go-contract.md §2.3 readInt64Annotation and §7.2.
  it.each<[string, bigint]>([
    ["0", 0n],
    ["7", 7n],
    ["007", 7n],
    ["+42", 42n],
    ["-3", -3n],
    ["-0", 0n],
    ["+0", 0n],
    ["9007199254740993", 9007199254740993n], // above 2^53: exact
    ["-9007199254740993", -9007199254740993n],
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
    ["000000000000000000000000000009223372036854775807", 9223372036854775807n],
  ])("parses %j as %s", (input, expected) => {
    expect(parseInt64(input)).toBe(expected);
  });

  it.each([
    "",
    "+",
    "-",
    " 42",
    "42 ",
    "4 2",
    "4_2",
    "0x2a",
    "1e3",
    "42.0",
    "٤٢",
    "٥٩٠٠",
    "+-1",
    "--1",
    "abc",
    "5900abc",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999",
  ])("rejects %j", (input) => {
    expect(parseInt64(input)).toBeUndefined();
  });
});

describe("parseInt64 and parseInt32 on long text", () => {
  // Go's ParseInt gives up at the first digit past the range, whatever follows.
  it("counts only significant digits: leading zeros are free", () => {
    const zeros = "0".repeat(1_048_576);
    expect(parseInt64(`+${zeros}9223372036854775807`)).toBe(9223372036854775807n);
    expect(parseInt64(`-${zeros}9223372036854775808`)).toBe(-9223372036854775808n);
    expect(parseInt64(zeros)).toBe(0n);
    expect(parseInt32(`${zeros}2147483647`)).toBe(2147483647);
    expect(parseInt32(`-${zeros}`)).toBe(0);
  });

  it("refuses more significant digits than the type holds", () => {
    expect(parseInt64("1".padEnd(20, "0"))).toBeUndefined();
    expect(parseInt64("9".repeat(1_048_576))).toBeUndefined();
    expect(parseInt32("1".padEnd(11, "0"))).toBeUndefined();
    expect(parseInt32(`-${"9".repeat(1_048_576)}`)).toBeUndefined();
  });

  it("refuses a value that is not a string", () => {
    for (const value of [42, 42n, null, undefined, ["42"], Symbol("s")] as unknown[]) {
      expect(parseInt64(value as string)).toBeUndefined();
      expect(parseInt32(value as string)).toBeUndefined();
    }
  });
});

describe("parseInt32", () => {
  // go-contract.md §2.3 ParseVMRuntime (vnc-port).
  it.each<[string, number]>([
    ["5900", 5900],
    ["+5900", 5900],
    ["05900", 5900],
    ["-1", -1],
    ["2147483647", 2147483647],
    ["-2147483648", -2147483648],
    ["00000000000000000000002147483647", 2147483647],
  ])("parses %j as %d", (input, expected) => {
    expect(parseInt32(input)).toBe(expected);
  });

  it("returns 0, not -0, for -0", () => {
    expect(Object.is(parseInt32("-0"), 0)).toBe(true);
  });

  it.each([
    "2147483648",
    "-2147483649",
    " 5900",
    "5900 ",
    "0x170c",
    "5_900",
    "1e3",
    "5900.0",
    "not-a-number",
    "٥٩٠٠",
    "",
    "+",
    "9223372036854775807",
  ])("rejects %j", (input) => {
    expect(parseInt32(input)).toBeUndefined();
  });
});

describe("atoi", () => {
  // go-contract.md §2.3 ExtractAgentSlot.
  it.each<[string, bigint]>([
    ["0", 0n],
    ["1", 1n],
    ["+1", 1n],
    ["+0", 0n],
    ["01", 1n],
    ["9223372036854775807", 9223372036854775807n],
  ])("parses %j as %s", (input, expected) => {
    expect(atoi(input)).toBe(expected);
  });

  it.each(["", "+", "1.0", "1e2", "0x1", "1_0", " 1", "1 ", "١", "9223372036854775808"])("rejects %j", (input) => {
    expect(atoi(input)).toBeUndefined();
  });
});

describe("parseBool", () => {
  it.each(["1", "t", "T", "TRUE", "true", "True"])("%j is true", (input) => {
    expect(parseBool(input)).toBe(true);
  });
  it.each(["0", "f", "F", "FALSE", "false", "False"])("%j is false", (input) => {
    expect(parseBool(input)).toBe(false);
  });
  it.each(["", "tRUE", "yes", "no", "on", "y", " true", "true ", "2", "TrUe", "fALSE"])("rejects %j", (input) => {
    expect(parseBool(input)).toBeUndefined();
  });
});

describe("formatInt", () => {
  it.each<[number | bigint, string]>([
    [0, "0"],
    [-0, "0"],
    [7, "7"],
    [-1, "-1"],
    [9007199254740993n, "9007199254740993"],
    [-9223372036854775808n, "-9223372036854775808"],
    [2 ** 70, "1180591620717411303424"], // never exponent notation
  ])("formats %s as %j", (input, expected) => {
    expect(formatInt(input)).toBe(expected);
  });

  it("refuses a non-integer", () => {
    expect(() => formatInt(1.5)).toThrow("1.5 is not an integer");
  });
});

describe("toGoInteger", () => {
  it.each<[number | bigint, 32 | 64, bigint]>([
    [0, 64, 0n],
    [7, 64, 7n],
    [-1, 32, -1n],
    [Number.MAX_SAFE_INTEGER, 64, 9007199254740991n],
    [2147483647, 32, 2147483647n],
    [-2147483648, 32, -2147483648n],
    [9223372036854775807n, 64, 9223372036854775807n],
    [-9223372036854775808n, 64, -9223372036854775808n],
  ])("accepts %s as int%d", (value, bits, expected) => {
    expect(toGoInteger(value, "cocoonset generation", bits)).toBe(expected);
  });

  it.each<[number | bigint, 32 | 64, string]>([
    [1.5, 64, "cocoonset generation 1.5 is not an integer"],
    [Number.NaN, 64, "cocoonset generation NaN is not an integer"],
    [Number.POSITIVE_INFINITY, 64, "cocoonset generation Infinity is not an integer"],
    [2 ** 53, 64, "cocoonset generation 9007199254740992 is not a safe integer (it has lost precision; pass a bigint)"],
    [2147483648, 32, "cocoonset generation 2147483648 is out of range for int32"],
    [-2147483649n, 32, "cocoonset generation -2147483649 is out of range for int32"],
    [9223372036854775808n, 64, "cocoonset generation 9223372036854775808 is out of range for int64"],
  ])("rejects %s as int%d", (value, bits, message) => {
    let caught: unknown;
    try {
      toGoInteger(value, "cocoonset generation", bits);
    } catch (err) {
      caught = err;
    }
    expect(isCocoonError(caught, "ERR_INVALID_INTEGER")).toBe(true);
    expect((caught as Error).message).toBe(message);
  });

  it("rejects a value of the wrong type from untyped callers", () => {
    expect(() => toGoInteger("7" as unknown as number, "vnc port", 32)).toThrow("vnc port 7 is not an integer");
  });
});

describe("int64ToNumberOrBigInt", () => {
  it.each<[bigint, number | bigint]>([
    [0n, 0],
    [7n, 7],
    [9007199254740991n, 9007199254740991],
    [-9007199254740991n, -9007199254740991],
    [9007199254740992n, 9007199254740992n],
    [-9007199254740993n, -9007199254740993n],
    [9223372036854775807n, 9223372036854775807n],
  ])("returns %s as %s", (input, expected) => {
    expect(int64ToNumberOrBigInt(input)).toBe(expected);
  });
});

describe("shortDecimal", () => {
  it.each(["0", "-0", "+0", "7", "+7", "-7", "007", "999999999999999", "-999999999999999", "000000000000042"])(
    "agrees with parseInt64 on %j",
    (s) => {
      expect(shortDecimal(s)).toBe(Number(parseInt64(s)));
      expect(Object.is(shortDecimal(s), -0)).toBe(false);
    },
  );

  it.each(["", "+", "-", "1000000000000000", "0000000000000001", " 1", "1 ", "1e3", "0x1", "1_0", "٣", "1.0", "--1", "+-1"])(
    "leaves %j to parseInt64",
    (s) => {
      expect(shortDecimal(s)).toBeUndefined();
    },
  );
});

import { describe, expect, it } from "vitest";
import { quantityNano } from "./quantity-nano.js";

describe("quantityNano", () => {
  it("is Go's value in nano units: equal spellings equal, fractions rounded up, capped at int64", () => {
    expect(quantityNano("1Gi")).toBe(quantityNano("1024Mi"));
    expect(quantityNano("1073741824")).toBe(1073741824n * 10n ** 9n);
    expect(quantityNano("1")).toBe(quantityNano("1000m"));
    expect(quantityNano(" 1.500G")).toBe(quantityNano("1.5G"));
    expect(quantityNano("1n")).toBe(1n);
    expect(quantityNano("0.0000000001")).toBe(1n); // Go rounds a non-zero value up to 1n
    expect(quantityNano("-0.0000000001")).toBe(-1n);
    expect(quantityNano("1e300")).toBe((2n ** 63n - 1n) * 10n ** 9n);
    expect(quantityNano("0Gi")).toBe(0n);
    expect(quantityNano(5368709120)).toBe(5368709120n * 10n ** 9n);
    expect(quantityNano("-1Gi")).toBe(-(2n ** 30n) * 10n ** 9n);
  });

  it("refuses what Go cannot parse, every time", () => {
    for (let i = 0; i < 2; i++) expect(() => quantityNano("1K")).toThrow(expect.objectContaining({ code: "ERR_INVALID_QUANTITY" }));
  });
});

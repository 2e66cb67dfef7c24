import { describe, expect, it } from "vitest";
import { quantityString } from "../quantity.js";
import { cachedQuantityString } from "./quantity-cache.js";

describe("cachedQuantityString", () => {
  it("gives quantityString's text on first and repeated calls, past the bound", () => {
    const inputs = Array.from({ length: 600 }, (_, i) => `${String(i * 1000)}${i % 2 === 0 ? "Mi" : "m"}`);
    for (const round of [1, 2]) {
      for (const q of inputs) expect(cachedQuantityString(q), `${q} round ${String(round)}`).toBe(quantityString(q));
    }
    expect(cachedQuantityString(" 1024Mi ")).toBe("1Gi");
    expect(cachedQuantityString("1".repeat(100))).toBe(quantityString("1".repeat(100)));
  });

  it("passes numbers, bigints and null through", () => {
    expect(cachedQuantityString(1.5)).toBe("1500m");
    expect(cachedQuantityString(2048n)).toBe("2048");
    expect(cachedQuantityString(null)).toBe("");
  });

  it("throws on every call for a refused quantity, never caching it", () => {
    expect(() => cachedQuantityString("1K")).toThrow(/unable to parse quantity's suffix/);
    expect(() => cachedQuantityString("1K")).toThrow(/unable to parse quantity's suffix/);
  });
});

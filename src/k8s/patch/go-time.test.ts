import { describe, expect, it } from "vitest";
import { goTimeJSON } from "./go-time.js";

describe("goTimeJSON", () => {
  it.each<[string, unknown, string | null | undefined]>([
    ["whole seconds in UTC", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"],
    ["a fraction dropped", "2026-01-01T00:00:00.999999999Z", "2026-01-01T00:00:00Z"],
    ["an offset turned to UTC", "2026-01-01T01:30:00+01:30", "2026-01-01T00:00:00Z"],
    ["a negative offset across midnight", "2025-12-31T23:00:00-01:00", "2026-01-01T00:00:00Z"],
    ["a Date", new Date("2026-08-12T10:00:00.789Z"), "2026-08-12T10:00:00Z"],
    ["Go's zero time as null", "0001-01-01T00:00:00Z", null],
    ["the zero instant through an offset", "0001-01-01T01:00:00+01:00", null],
    ["a leap day", "2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"],
    ["no leap day", "2025-02-29T00:00:00Z", undefined],
    ["second 60", "2026-01-01T00:00:60Z", undefined],
    ["a date only", "2026-01-01", undefined],
    ["a lower-case t", "2026-01-01t00:00:00Z", undefined],
    ["a year past 9999 in UTC", "9999-12-31T23:59:59-01:00", undefined],
    ["an invalid Date", new Date(Number.NaN), undefined],
    ["a number", 0, undefined],
  ])("%s", (_, value, expected) => {
    expect(goTimeJSON(value)).toBe(expected);
  });
});

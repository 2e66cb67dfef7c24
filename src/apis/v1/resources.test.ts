import { describe, expect, it } from "vitest";
import { pathsOf } from "./internal/test-fixtures.js";
import { QuantitySchema, ResourceRequirementsSchema } from "./resources.js";

describe("QuantitySchema (x-kubernetes-int-or-string with the quantity pattern)", () => {
  it.each([
    ["1Gi", "1Gi"],
    ["1000", 1000],
    ["string 1000", "1000"],
    ["500m", "500m"],
    ["1.5Gi", "1.5Gi"],
    ["+100Gi", "+100Gi"],
    ["-1", "-1"],
    [".5", ".5"],
    ["1.", "1."],
    ["1e3", "1e3"],
    ["1E-3", "1E-3"],
    ["zero", 0],
    ["negative integer", -5],
    ["1k", "1k"],
    ["1Ei", "1Ei"],
  ])("accepts %s", (_name, value) => {
    expect(QuantitySchema.parse(value)).toBe(value);
  });

  it.each([
    ["1K (upper-case decimal k)", "1K"],
    ["1.5 (a JSON float)", 1.5],
    ["empty string", ""],
    ["leading space", " 1Gi"],
    ["trailing space", "1Gi "],
    ["1ki", "1ki"],
    ["1Gb", "1Gb"],
    ["two suffixes", "1GiM"],
    ["boolean", true],
    ["null", null],
    ["NaN", Number.NaN],
    ["unsafe integer", 2 ** 60],
  ])("rejects %s", (_name, value) => {
    expect(QuantitySchema.safeParse(value).success).toBe(false);
  });
});

describe("ResourceRequirementsSchema", () => {
  it("keeps limits and requests as written", () => {
    const input = { limits: { cpu: 2, memory: "4Gi" }, requests: { cpu: "500m" }, claims: [{ name: "gpu", request: "a" }] };
    expect(ResourceRequirementsSchema.parse(input)).toEqual(input);
  });

  it("names the bad quantity", () => {
    expect(pathsOf(ResourceRequirementsSchema.safeParse({ requests: { cpu: "1K" } }))).toEqual(["requests.cpu"]);
  });

  it("requires a claim name and rejects duplicate names", () => {
    expect(pathsOf(ResourceRequirementsSchema.safeParse({ claims: [{}] }))).toEqual(["claims.0.name"]);
    expect(pathsOf(ResourceRequirementsSchema.safeParse({ claims: [{ name: "a" }, { name: "a", request: "r" }] }))).toEqual(["claims.1"]);
  });
});

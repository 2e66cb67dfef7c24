import { afterEach, describe, expect, it } from "vitest";
import { envBool, envOrDefault } from "./env.js";

describe("envOrDefault", () => {
  it.each([
    ["set", { K: "v" }, "v"],
    ["unset", {}, "fb"],
    ["empty", { K: "" }, "fb"],
    ["whitespace is a value", { K: " " }, " "],
    ["explicit undefined", { K: undefined }, "fb"],
  ])("%s", (_name, env, want) => {
    expect(envOrDefault("K", "fb", env)).toBe(want);
  });

  describe("reads process.env by default", () => {
    const key = "COCOON_COMMON_ENV_TEST";
    afterEach(() => {
      delete process.env[key];
    });
    it("uses the live process environment", () => {
      expect(envOrDefault(key, "fb")).toBe("fb");
      process.env[key] = "live";
      expect(envOrDefault(key, "fb")).toBe("live");
      process.env[key] = "0";
      expect(envBool(key, true)).toBe(false);
    });
  });
});

describe("envBool", () => {
  const trueSpellings = ["1", "t", "T", "TRUE", "true", "True"];
  const falseSpellings = ["0", "f", "F", "FALSE", "false", "False"];
  const garbage = ["yes", "no", "on", "off", "tRUE", "TrUe", "fALSE", " true", "true ", "", "2", "-1", "y", "truee"];

  it.each(trueSpellings)("%j is true regardless of the fallback", (v) => {
    expect(envBool("K", false, { K: v })).toBe(true);
    expect(envBool("K", true, { K: v })).toBe(true);
  });

  it.each(falseSpellings)("%j is false regardless of the fallback", (v) => {
    expect(envBool("K", true, { K: v })).toBe(false);
    expect(envBool("K", false, { K: v })).toBe(false);
  });

  it.each(garbage)("%j gives the fallback", (v) => {
    expect(envBool("K", true, { K: v })).toBe(true);
    expect(envBool("K", false, { K: v })).toBe(false);
  });

  it("gives the fallback when unset", () => {
    expect(envBool("K", true, {})).toBe(true);
    expect(envBool("K", false, {})).toBe(false);
  });
});

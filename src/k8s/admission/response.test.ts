import { describe, expect, it } from "vitest";
import { allow, DEFAULT_MAX_BODY, deny } from "./response.js";

describe("admission responses", () => {
  it("DEFAULT_MAX_BODY is 10 << 20", () => {
    expect(DEFAULT_MAX_BODY).toBe(10485760);
  });

  it("allow() has Go's JSON", () => {
    expect(JSON.stringify(allow())).toBe('{"uid":"","allowed":true}');
  });

  it("deny() has Go's JSON, without a code", () => {
    expect(JSON.stringify(deny("no"))).toBe('{"uid":"","allowed":false,"status":{"metadata":{},"message":"no","reason":"Forbidden"}}');
  });

  it("returns a fresh object each time", () => {
    const a = deny("x");
    a.status!.metadata!["k"] = 1;
    expect(deny("x").status?.metadata).toStrictEqual({});
    expect(allow()).not.toBe(allow());
  });
});

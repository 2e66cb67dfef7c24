import { describe, expect, it } from "vitest";
import { CocoonError, isCocoonError } from "./errors.js";

describe("isCocoonError", () => {
  it("recognises its own errors, with and without a code", () => {
    const err = new CocoonError("ERR_INVALID_ARGUMENT", "bad");
    expect(isCocoonError(err)).toBe(true);
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(false);
    expect(isCocoonError(new Error("bad"))).toBe(false);
  });

  it("never throws, on any value: throwing traps and a revoked proxy are not CocoonErrors", () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
      },
    );
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const value of [throwing, proxy, null, undefined, 0, "ERR_INVALID_ARGUMENT", Symbol("x"), () => undefined, Object.create(null)]) {
      expect(isCocoonError(value)).toBe(false);
      expect(isCocoonError(value, "ERR_INVALID_ARGUMENT")).toBe(false);
    }
  });

  it("checks the code through a proxy of a real CocoonError", () => {
    const wrapped = new Proxy(new CocoonError("ERR_SNAPSHOT_FORMAT", "x"), {});
    expect(isCocoonError(wrapped, "ERR_SNAPSHOT_FORMAT")).toBe(true);
  });
});

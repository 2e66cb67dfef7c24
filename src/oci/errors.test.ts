import { describe, expect, it } from "vitest";
import { CocoonError, isCocoonError } from "../errors.js";
import { codeForStatus, isRegistryError, RegistryError } from "./errors.js";

describe("RegistryError", () => {
  it("is a CocoonError with its code, status, request and cause", () => {
    const cause = new Error("socket hang up");
    const err = new RegistryError("ERR_REGISTRY_TRANSPORT", "head manifest vm:hibernate: socket hang up", {
      request: "HEAD http://127.0.0.1:5000/v2/vm/manifests/hibernate",
      cause,
    });
    expect(err).toBeInstanceOf(CocoonError);
    expect(isCocoonError(err, "ERR_REGISTRY_TRANSPORT")).toBe(true);
    expect([err.name, err.status, err.request, err.cause]).toEqual([
      "RegistryError",
      undefined,
      "HEAD http://127.0.0.1:5000/v2/vm/manifests/hibernate",
      cause,
    ]);
  });

  it("has no cause property when none is given", () => {
    expect("cause" in new RegistryError("ERR_REGISTRY_NOT_FOUND", "absent", { status: 404 })).toBe(false);
  });
});

describe("isRegistryError", () => {
  it("matches registry codes only, and the given code exactly", () => {
    const forbidden = new RegistryError("ERR_REGISTRY_FORBIDDEN", "no", { status: 403 });
    expect(isRegistryError(forbidden)).toBe(true);
    expect(isRegistryError(forbidden, "ERR_REGISTRY_FORBIDDEN")).toBe(true);
    expect(isRegistryError(forbidden, "ERR_REGISTRY_UNAUTHORIZED")).toBe(false);
    expect(isRegistryError(new CocoonError("ERR_INVALID_REFERENCE", "bad"))).toBe(false);
  });

  it.each([undefined, null, 0, "ERR_REGISTRY_NOT_FOUND", {}, { code: "ERR_REGISTRY_NOT_FOUND" }, new Error("x")])(
    "is false for %j",
    (value) => expect(isRegistryError(value)).toBe(false),
  );

  it("recognizes an error of another copy of the package by its brand", () => {
    const foreign = Object.assign(new Error("absent"), {
      code: "ERR_REGISTRY_NOT_FOUND",
      [Symbol.for("@cocoonstack/cocoon-common/error")]: true,
    });
    expect(isRegistryError(foreign, "ERR_REGISTRY_NOT_FOUND")).toBe(true);
  });
});

describe("codeForStatus", () => {
  it.each([
    [401, "ERR_REGISTRY_UNAUTHORIZED"],
    [403, "ERR_REGISTRY_FORBIDDEN"],
    [404, "ERR_REGISTRY_NOT_FOUND"],
    [400, "ERR_REGISTRY_STATUS"],
    [500, "ERR_REGISTRY_STATUS"],
  ] as const)("maps %i to %s", (status, code) => expect(codeForStatus(status)).toBe(code));
});

import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound, statusCode, statusMessage, statusReason } from "./api-errors.js";

/** A Status body exactly as kube-apiserver sends it. */
const statusBody = (code: number, reason: string, message: string): string =>
  JSON.stringify({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    details: { name: "p", kind: "pods" },
    code,
  });

/** What client-node's generated APIs throw for a non-2xx response: the body is the raw text. */
const apiException = (code: number, reason: string, message: string) =>
  new ApiException(code, "Unknown API Status Code!", statusBody(code, reason, message), {
    "content-type": "application/json",
  });

const notFound = apiException(404, "NotFound", 'pods "p" not found');
const conflict = apiException(
  409,
  "Conflict",
  'Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again',
);
const alreadyExists = apiException(409, "AlreadyExists", 'pods "p" already exists');
const forbidden = apiException(403, "Forbidden", 'pods "p" is forbidden: User "u" cannot patch resource "pods"');
const invalid = apiException(422, "Invalid", 'Pod "p" is invalid: spec: Forbidden');
/** client-node's 401 path: no body at all. */
const unauthorized = new ApiException(401, "Unauthorized", undefined, {});
/** A copy of ApiException from another install: same shape, different class. */
const lookAlike = Object.assign(new Error("HTTP-Code: 404"), {
  code: 404,
  body: { kind: "Status", reason: "NotFound", message: "gone", code: 404 },
  headers: {},
});

describe("statusCode", () => {
  it.each([
    ["ApiException 404", notFound, 404],
    ["ApiException 401 without body", unauthorized, 401],
    ["look-alike ApiException", lookAlike, 404],
    ["Status object (watch error event)", { kind: "Status", code: 410, reason: "Expired" }, 410],
    ["statusCode property (watch error)", Object.assign(new Error("x"), { statusCode: 503 }), 503],
    ["response.statusCode (client-node 0.x HttpError)", { response: { statusCode: 409 }, body: {} }, 409],
    ["code only in the string body", { body: statusBody(422, "Invalid", "bad") }, 422],
    ["code only in the object body", { body: { code: 403 } }, 403],
    ["wrapped in a cause chain", new Error("patch failed", { cause: new Error("inner", { cause: notFound }) }), 404],
    ["Node string code", Object.assign(new Error("connect"), { code: "ECONNREFUSED" }), undefined],
    ["gRPC-like small numeric code", { code: 5 }, undefined],
    ["non-integer code", { code: 404.5 }, undefined],
    ["body that is not JSON", { body: "<html>bad gateway</html>" }, undefined],
    ["plain Error", new Error("boom"), undefined],
    ["undefined", undefined, undefined],
    ["null", null, undefined],
    ["string", "404", undefined],
  ])("%s", (_name, err, want) => {
    expect(statusCode(err)).toBe(want);
  });

  it("prefers the HTTP code over the body's code", () => {
    expect(statusCode(new ApiException(500, "x", statusBody(404, "NotFound", "m"), {}))).toBe(500);
  });

  it("stops on a cause cycle", () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(statusCode(a)).toBeUndefined();
  });
});

describe("statusReason and statusMessage", () => {
  it("read the Status body of a real ApiException", () => {
    expect(statusReason(notFound)).toBe("NotFound");
    expect(statusMessage(notFound)).toBe('pods "p" not found');
  });

  it("read a body given as an object and a Status thrown directly", () => {
    expect(statusReason(lookAlike)).toBe("NotFound");
    expect(statusMessage({ kind: "Status", message: "too old resource version", reason: "Expired" })).toBe("too old resource version");
  });

  it("read response.body", () => {
    expect(statusReason({ response: { statusCode: 409, body: { reason: "Conflict" } } })).toBe("Conflict");
  });

  it("give undefined without a Status body", () => {
    expect(statusReason(unauthorized)).toBeUndefined();
    expect(statusMessage(new Error("x"))).toBeUndefined();
    expect(statusReason({ body: "not json" })).toBeUndefined();
    expect(statusReason({ body: { reason: 7 } })).toBeUndefined();
  });
});

describe("predicates", () => {
  const cases = [
    ["NotFound", notFound, { isNotFound: true }],
    ["Conflict", conflict, { isConflict: true }],
    ["AlreadyExists (409 but not a conflict, as in Go)", alreadyExists, { isAlreadyExists: true }],
    ["Forbidden", forbidden, { isForbidden: true }],
    ["Invalid", invalid, { isInvalid: true }],
    ["Unauthorized", unauthorized, {}],
    ["bare 404 without body", new ApiException(404, "x", undefined, {}), { isNotFound: true }],
    ["bare 409 without body", { code: 409 }, { isConflict: true }],
    ["bare 403", { statusCode: 403 }, { isForbidden: true }],
    ["bare 422", { response: { statusCode: 422 } }, { isInvalid: true }],
    ["404 with an unknown reason", { code: 404, body: { reason: "SomethingNew" } }, { isNotFound: true }],
    ["404 with a known other reason", { code: 404, body: { reason: "Gone" } }, {}],
    ["reason NotFound with another code", { code: 500, body: { reason: "NotFound" } }, { isNotFound: true }],
    ["409 with reason AlreadyExists only in the cause", new Error("w", { cause: alreadyExists }), { isAlreadyExists: true }],
    ["look-alike from another client copy", lookAlike, { isNotFound: true }],
    ["plain Error", new Error("x"), {}],
    ["undefined", undefined, {}],
  ] as const;

  it.each(cases)("%s", (_name, err, want) => {
    const w: Partial<Record<string, boolean>> = want;
    expect({
      isNotFound: isNotFound(err),
      isConflict: isConflict(err),
      isAlreadyExists: isAlreadyExists(err),
      isForbidden: isForbidden(err),
      isInvalid: isInvalid(err),
    }).toEqual({
      isNotFound: w["isNotFound"] ?? false,
      isConflict: w["isConflict"] ?? false,
      isAlreadyExists: w["isAlreadyExists"] ?? false,
      isForbidden: w["isForbidden"] ?? false,
      isInvalid: w["isInvalid"] ?? false,
    });
  });
});

import { describe, expect, it } from "vitest";
import { parseChallenge } from "./challenge.js";

describe("parseChallenge", () => {
  it("reads distribution's bearer challenge", () => {
    const header =
      'Bearer realm="http://127.0.0.1:1/token",service="cocoon-test-registry",scope="repository:vm:pull",error="insufficient_scope"';
    expect(parseChallenge(header)).toEqual({
      scheme: "bearer",
      params: {
        realm: "http://127.0.0.1:1/token",
        service: "cocoon-test-registry",
        scope: "repository:vm:pull",
        error: "insufficient_scope",
      },
    });
  });

  it.each([
    ['Basic realm="x"', { scheme: "basic", params: { realm: "x" } }],
    ["basic realm=x, charset=UTF-8", { scheme: "basic", params: { realm: "x", charset: "UTF-8" } }],
    ['Bearer realm="a \\"quoted\\" realm"', { scheme: "bearer", params: { realm: 'a "quoted" realm' } }],
    ["Negotiate", { scheme: "negotiate", params: {} }],
  ])("%j", (header, expected) => expect(parseChallenge(header)).toEqual(expected));

  it.each([null, undefined, "", "   ", 42, {}])("never throws on %j", (value) => {
    expect(parseChallenge(value as string)).toBeUndefined();
  });
});

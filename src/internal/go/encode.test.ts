import { describe, expect, it } from "vitest";
import { encodeGo, GoEncodeError } from "./encode.js";
import { BOOL, INT64_SAFE, QUANTITY, always, map, oe, ptr, struct } from "./go-type.js";

const TYPE = struct(oe("optional", ptr(BOOL)), oe("weight", INT64_SAFE), always("limits", map(QUANTITY)));
const noRaw = (): undefined => undefined;

describe("encodeGo", () => {
  it("keeps a pointer to a zero value, writes quantities through the hook and sorts maps", () => {
    const quantity = (v: string | number | bigint) => `q${String(v)}`;
    expect(encodeGo(TYPE, { optional: false, weight: 0, limits: { memory: "1Gi", cpu: 2 } }, noRaw, { quantity })).toBe(
      '{"optional":false,"limits":{"cpu":"q2","memory":"q1Gi"}}',
    );
  });

  it("refuses an unknown member only when asked, an int64 past 2^53 − 1 held as a number, and an unwritten quantity", () => {
    expect(encodeGo(TYPE, { extra: 1 }, noRaw)).toBe('{"limits":null}');
    expect(() => encodeGo(TYPE, { extra: 1 }, noRaw, { root: "pod", unknownFields: "refuse" })).toThrow(
      new GoEncodeError("pod.extra", 1, undefined),
    );
    expect(() => encodeGo(TYPE, { weight: 2 ** 53 }, noRaw)).toThrow("value.weight: number cannot be held in a Go int64");
    expect(() => encodeGo(TYPE, { limits: { cpu: "1" } }, noRaw)).toThrow("value.limits.cpu: quantity is not encoded here");
  });
});

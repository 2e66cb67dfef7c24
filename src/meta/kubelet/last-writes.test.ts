import { describe, expect, it } from "vitest";
import { LastWrites, compareResourceVersions } from "./last-writes.js";

const at = (resourceVersion: string, uid = "u-1") => ({ metadata: { uid, resourceVersion } });

describe("compareResourceVersions", () => {
  it.each([
    ["1", "2", -1],
    ["999", "1000", -1],
    ["1000", "999", 1],
    ["4711", "4711", 0],
    ["18446744073709551616", "18446744073709551615", 1], // past uint64: no length limit
    ["0", "1", undefined], // zero is the list/watch special value, never a live version
    ["01", "2", undefined],
    ["", "2", undefined],
    ["12a", "13", undefined],
    [" 12", "13", undefined],
    ["-1", "2", undefined],
  ] as const)("%j vs %j: %j", (a, b, expected) => {
    expect(compareResourceVersions(a, b)).toBe(expected);
  });

  it("never throws on values that are not strings", () => {
    expect(compareResourceVersions(12 as never, "13")).toBeUndefined();
    expect(compareResourceVersions(null as never, undefined as never)).toBeUndefined();
  });
});

describe("LastWrites", () => {
  it("an event older than the virtual kubelet's own write is stale; the write itself and newer ones are not", () => {
    const writes = new LastWrites();
    writes.record(at("1000"));
    expect(writes.isStale(at("999"))).toBe(true);
    expect(writes.isStale(at("1000"))).toBe(false);
    expect(writes.isStale(at("1001"))).toBe(false);
  });

  it("a newer pod of the same name (another uid) is never stale", () => {
    const writes = new LastWrites();
    writes.record(at("1000", "u-1"));
    expect(writes.isStale(at("5", "u-2"))).toBe(false);
  });

  it("keeps the newest write when answers arrive out of order", () => {
    const writes = new LastWrites();
    writes.record(at("1002"));
    writes.record(at("1001"));
    expect(writes.isStale(at("1001"))).toBe(true);
  });

  it("in doubt keeps the event: versions that are not comparable never make it stale", () => {
    const writes = new LastWrites();
    writes.record(at("abc"));
    expect(writes.isStale(at("1"))).toBe(false);
    writes.record(at("1000"));
    expect(writes.isStale(at("0999"))).toBe(false);
    expect(writes.isStale({})).toBe(false);
    expect(writes.isStale(null as never)).toBe(false);
  });

  it("records nothing without a uid or a version, and forgets a pod on request", () => {
    const writes = new LastWrites();
    writes.record({ metadata: { resourceVersion: "7" } });
    writes.record({ metadata: { uid: "u-1" } });
    expect(writes.size).toBe(0);
    writes.record(at("7"));
    expect(writes.size).toBe(1);
    writes.forget(at("7"));
    expect(writes.size).toBe(0);
    expect(writes.isStale(at("6"))).toBe(false);
  });
});

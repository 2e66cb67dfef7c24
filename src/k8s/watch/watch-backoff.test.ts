import { describe, expect, it } from "vitest";
import { WatchBackoff } from "./watch-backoff.js";

describe("WatchBackoff", () => {
  it("doubles from 800 ms to a 30 s cap, jittered up to twice each step, as client-go's reflector", () => {
    let now = 0;
    const low = new WatchBackoff(
      () => 0,
      () => (now += 1_000),
    );
    expect(Array.from({ length: 8 }, () => low.next())).toEqual([800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000]);
    const high = new WatchBackoff(
      () => 0.999_999,
      () => (now += 1_000),
    );
    expect(Array.from({ length: 3 }, () => high.next())).toEqual([1_599, 3_199, 6_399]);
  });

  it("starts over after reset(), and when the last wait began more than 2 minutes ago", () => {
    let now = 0;
    const backoff = new WatchBackoff(
      () => 0,
      () => now,
    );
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([800, 1_600, 3_200]);
    backoff.reset();
    expect(backoff.next()).toBe(800);
    now += 120_000;
    expect(backoff.next()).toBe(1_600);
    now += 120_001;
    expect(backoff.next()).toBe(800);
  });
});

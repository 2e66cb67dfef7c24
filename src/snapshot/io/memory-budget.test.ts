import { describe, expect, it } from "vitest";
import { chunksInFlight, prefetchDepth } from "./memory-budget.js";

const MiB = 2 ** 20;

describe("chunksInFlight", () => {
  it("fits the runtime reserve, the chunk being read and two buffers per chunk in flight into the budget", () => {
    // (512 - 128 - 64) / (2 × 64) = 2.5: two chunks in flight, where Go's formula allows 3 workers.
    expect(chunksInFlight(8, 64 * MiB, 512 * MiB)).toBe(2);
    // (1024 - 128 - 64) / 128 = 6.5
    expect(chunksInFlight(8, 64 * MiB, 1024 * MiB)).toBe(6);
    // (9216 - 128 - 64) / 128 = 70.5: Go's 8 workers stand.
    expect(chunksInFlight(8, 64 * MiB, 9216 * MiB)).toBe(8);
    // exactly at the edge: 128 + 16 + 2 × 16 × 3 = 240
    expect(chunksInFlight(8, 16 * MiB, 240 * MiB)).toBe(3);
    expect(chunksInFlight(8, 16 * MiB, 240 * MiB - 1)).toBe(2);
  });

  it("keeps one chunk in flight when even that overshoots the budget", () => {
    // (256 - 128 - 64) / 128 = 0.5
    expect(chunksInFlight(8, 64 * MiB, 256 * MiB)).toBe(1);
  });
});

describe("prefetchDepth", () => {
  it("fits the runtime reserve, the chunks ahead, the chunk being written and one uncollected chunk into the budget", () => {
    // (512 - 128 - 2 × 64) / (1 + 64) = 3.9: three chunks ahead of a sparse pull, where Go's window is 4.
    expect(prefetchDepth(4, 1 * MiB, 64 * MiB, 512 * MiB)).toBe(3);
    // (512 - 128 - 128) / (64 + 64) = 2: incompressible chunks.
    expect(prefetchDepth(4, 64 * MiB, 64 * MiB, 512 * MiB)).toBe(2);
    // exactly at the edge: 128 + 2 × 16 + 3 × (16 + 16) = 256
    expect(prefetchDepth(8, 16 * MiB, 16 * MiB, 256 * MiB)).toBe(3);
    expect(prefetchDepth(8, 16 * MiB, 16 * MiB, 256 * MiB - 1)).toBe(2);
    // Go's window stands when the budget is large.
    expect(prefetchDepth(4, 64 * MiB, 64 * MiB, 4096 * MiB)).toBe(4);
  });

  it("keeps one chunk ahead when even that overshoots the budget", () => {
    expect(prefetchDepth(4, 64 * MiB, 64 * MiB, 256 * MiB)).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { chunksInFlight } from "./push-memory.js";

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

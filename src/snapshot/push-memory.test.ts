import { describe, expect, it } from "vitest";
import { chunksInFlight } from "./push-memory.js";

const MiB = 2 ** 20;

describe("chunksInFlight", () => {
  it("fits the runtime reserve, the chunk being read and three buffers per chunk in flight into the budget", () => {
    // (512 - 128 - 64) / (3 × 64) = 1.67: one chunk in flight, where Go's formula allows 3 workers.
    expect(chunksInFlight(2, 64 * MiB, 512 * MiB)).toBe(1);
    // (1024 - 128 - 64) / 192 = 4.33
    expect(chunksInFlight(8, 64 * MiB, 1024 * MiB)).toBe(4);
    // (9216 - 128 - 64) / 192 = 47: Go's 8 workers stand.
    expect(chunksInFlight(8, 64 * MiB, 9216 * MiB)).toBe(8);
    // exactly at the edge: 128 + 16 + 3 × 16 × 2 = 240
    expect(chunksInFlight(8, 16 * MiB, 240 * MiB)).toBe(2);
    expect(chunksInFlight(8, 16 * MiB, 240 * MiB - 1)).toBe(1);
  });

  it("keeps one chunk in flight when even that overshoots the budget", () => {
    expect(chunksInFlight(8, 64 * MiB, 256 * MiB)).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { memoryLike } from "../snapshot-files.test-util.js";
import type { ReadAt } from "./piece-source.js";
import { POSITIONAL_PIECE, positionalPieces } from "./positional-pieces.js";
import { StreamRefusal } from "./stream-refusal.js";

/** Positional reads of `data`, recording each read's offset and length. */
function readsOf(data: Uint8Array, reads: string[] = []): ReadAt {
  return (out, offset) => {
    reads.push(`${offset}+${out.length}`);
    const n = Math.max(0, Math.min(out.length, data.length - offset));
    out.set(data.subarray(offset, offset + n));
    return Promise.resolve(n);
  };
}

describe("positionalPieces", () => {
  it("yields the region in 1 MiB pieces from two reused buffers, each read once at its offset", async () => {
    const data = memoryLike(5 * POSITIONAL_PIECE + 7, "p");
    const reads: string[] = [];
    const copies: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const piece of positionalPieces(readsOf(data, reads), data.length)) {
      copies.push(Buffer.from(piece));
      buffers.add(piece.buffer);
    }
    expect(POSITIONAL_PIECE).toBe(1 << 20);
    expect(copies.map((c) => c.length)).toEqual([1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 7]);
    expect(Buffer.concat(copies).equals(data)).toBe(true);
    expect(buffers.size).toBe(2);
    expect(reads).toEqual([0, 1, 2, 3, 4].map((i) => `${i << 20}+${1 << 20}`).concat(`${5 << 20}+7`));
  });

  it("leaves a piece as it was until the consumer asks for the piece after it", async () => {
    const data = memoryLike(6 * POSITIONAL_PIECE, "q");
    const pieces = positionalPieces(readsOf(data), data.length);
    for (let i = 0; i < 6; i++) {
      const held = (await pieces.next()).value as Uint8Array;
      // The next piece is being read meanwhile, into the other buffer.
      await new Promise((resolve) => setImmediate(resolve));
      expect(Buffer.from(held).equals(data.subarray(i << 20, (i + 1) << 20))).toBe(true);
    }
    expect((await pieces.next()).done).toBe(true);
  });

  it("a region shorter than its size fails with unexpected EOF after the bytes there are", async () => {
    const data = memoryLike(POSITIONAL_PIECE + 10, "r");
    const got: number[] = [];
    const err = await (async () => {
      for await (const piece of positionalPieces(readsOf(data), 3 * POSITIONAL_PIECE)) got.push(piece.length);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamRefusal);
    expect((err as Error).message).toBe("unexpected EOF");
    expect(got).toEqual([1 << 20]);
  });

  it("an empty region yields nothing and reads nothing", async () => {
    const reads: string[] = [];
    const got: Uint8Array[] = [];
    for await (const piece of positionalPieces(readsOf(Buffer.alloc(0), reads), 0)) got.push(piece);
    expect(got).toEqual([]);
    expect(reads).toEqual([]);
  });
});

import type { ReadAt } from "./piece-source.js";
import { unexpectedEOF } from "./stream-refusal.js";

/** Bytes per piece of {@link positionalPieces}. */
export const POSITIONAL_PIECE = 1 << 20;

/** Buffers {@link positionalPieces} reads into, in turn. */
const RING = 3;

/**
 * The `size` bytes of a region read by position, piece by piece, into {@link RING} reused
 * {@link POSITIONAL_PIECE} buffers: the next piece is read while the consumer sends the last, and a
 * piece's buffer is read into again once the consumer asks for the second piece after it. For a
 * consumer that lets go of a piece by then (an HTTP body that writes each piece before it pulls
 * another); a fresh buffer per piece would instead leave the collector tens of MiB of external
 * memory to find. `unexpected EOF` when the region is short. `ring` receives the buffers, so that
 * the caller can free them once the consumer is done with every piece (an upload that succeeded).
 */
export async function* positionalPieces(readAt: ReadAt, size: number, ring: Buffer[] = []): AsyncGenerator<Uint8Array> {
  let at = 0;
  let turn = 0;
  const read = async (): Promise<Uint8Array> => {
    const slot = turn++ % RING;
    ring[slot] ??= Buffer.allocUnsafeSlow(Math.min(POSITIONAL_PIECE, size));
    const out = ring[slot].subarray(0, Math.min(POSITIONAL_PIECE, size - at));
    const offset = at;
    at += out.length;
    if ((await readAt(out, offset)) < out.length) throw unexpectedEOF();
    return out;
  };
  let next = size > 0 ? read() : undefined;
  try {
    while (next !== undefined) {
      const piece = await next;
      next = at < size ? read() : undefined;
      next?.catch(() => undefined); // awaited on the next turn, unless the consumer stops first
      yield piece;
    }
  } finally {
    await next?.catch(() => undefined); // no read left writing into a buffer, or into a closed file
  }
}

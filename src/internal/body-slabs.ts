/** Slabs a registry body was received into and has moved past, each with the bytes it holds. */
const retired = new WeakMap<ArrayBuffer, number>();

/**
 * Records that the body's bytes in `slab` end at `used`: nothing more is written to it, and its
 * pieces were handed out in order, so the one that ends at `used` is its last.
 */
export function retireSlab(slab: Uint8Array, used: number): void {
  if (slab.buffer instanceof ArrayBuffer && slab.byteOffset === 0) retired.set(slab.buffer, used);
}

/** Whether `piece` is the last piece of a retired body slab (see {@link freeSlabOf}). */
export function endsSlab(piece: Uint8Array): boolean {
  return piece.buffer instanceof ArrayBuffer && retired.get(piece.buffer) === piece.byteOffset + piece.byteLength;
}

/**
 * Frees the slab under `piece` now instead of at a later collection, when `piece` is its last: for
 * a reader that takes a body's pieces in order and has let go of every earlier one (copied them,
 * or seen the output take them). Every view of the slab reads as empty from then on.
 */
export function freeSlabOf(piece: Uint8Array): void {
  if (!endsSlab(piece)) return;
  const { buffer } = piece as Uint8Array & { buffer: ArrayBuffer & { transfer(length?: number): ArrayBuffer } };
  retired.delete(buffer);
  try {
    buffer.transfer(0);
  } catch {
    // not detachable: the collector frees it
  }
}

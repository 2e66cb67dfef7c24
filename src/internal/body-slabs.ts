/** Slabs a registry body was received into and has moved past, each with the bytes it holds. */
const retired = new WeakMap<ArrayBuffer, number>();

/**
 * Records that the body's bytes in `slab` end at `used`: nothing more is written to it, and its
 * pieces were handed out in order, so the one that ends at `used` is its last.
 */
export function retireSlab(slab: Uint8Array, used: number): void {
  // Only a slab that is its whole buffer: a slice of Node's shared pool (detachable on Node 22) never is.
  if (slab.buffer instanceof ArrayBuffer && slab.byteOffset === 0 && slab.byteLength === slab.buffer.byteLength)
    retired.set(slab.buffer, used);
}

/** Whether `piece` is the last piece of a retired body slab (see {@link freeSlabOf}). */
export function endsSlab(piece: Uint8Array): boolean {
  return piece.buffer instanceof ArrayBuffer && retired.get(piece.buffer) === piece.byteOffset + piece.byteLength;
}

/** Slabs given back, for the next body to receive into; past this many a slab is freed instead. */
const POOL_LIMIT = 16;
const pool: ArrayBuffer[] = [];

type Movable = ArrayBuffer & { transfer(length?: number): ArrayBuffer };

/**
 * A slab of `size` bytes to receive a body into: one given back by {@link freeSlabOf} when it is
 * that size, else a fresh one. Reuse matters beyond the page faults: every fresh `ArrayBuffer`
 * counts towards the external memory that makes V8 run a full collection, freed or not.
 */
export function takeSlab(size: number): Buffer {
  const reused = pool.at(-1)?.byteLength === size ? pool.pop() : undefined;
  return reused === undefined ? Buffer.allocUnsafeSlow(size) : Buffer.from(reused);
}

/**
 * Gives back the slab under `piece` when `piece` is its last: for a reader that takes a body's
 * pieces in order and has let go of every earlier one (copied them, or seen the output take them).
 * Its memory moves to a new `ArrayBuffer` for the next body, so every view of the old one reads as
 * empty from then on; past {@link POOL_LIMIT} slabs it is freed.
 */
export function freeSlabOf(piece: Uint8Array): void {
  if (!endsSlab(piece)) return;
  const buffer = piece.buffer as Movable;
  retired.delete(buffer);
  try {
    if (pool.length < POOL_LIMIT) pool.push(buffer.transfer());
    else buffer.transfer(0);
  } catch {
    // not detachable: the collector frees it
  }
}

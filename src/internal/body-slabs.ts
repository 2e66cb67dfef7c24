/** Slabs a pool keeps for the next body; past this many a slab given back is freed instead. */
const POOL_LIMIT = 16;

type Movable = ArrayBuffer & { transfer(length?: number): ArrayBuffer };

/**
 * Slabs given back by the readers of a client's bodies, for its next body to receive into: one per
 * socket client (so per `OCIRegistry`), never shared with another. Reuse matters beyond the page
 * faults: every fresh `ArrayBuffer` counts towards the external memory that makes V8 run a full
 * collection, freed or not.
 */
export class SlabPool {
  readonly #free: ArrayBuffer[] = [];

  /** A slab of `size` bytes: one given back at that size, else a fresh one. */
  take(size: number): Buffer {
    const reused = this.#free.at(-1)?.byteLength === size ? this.#free.pop() : undefined;
    return reused === undefined ? Buffer.allocUnsafeSlow(size) : Buffer.from(reused);
  }

  /**
   * Moves `buffer`'s memory to a new `ArrayBuffer` kept for the next body (past {@link POOL_LIMIT}
   * slabs, frees it): every view of `buffer` reads as empty from then on.
   */
  give(buffer: ArrayBuffer): void {
    try {
      if (this.#free.length < POOL_LIMIT) this.#free.push((buffer as Movable).transfer());
      else (buffer as Movable).transfer(0);
    } catch {
      // not detachable: the collector frees it
    }
  }

  /** Slabs kept for the next body. */
  get size(): number {
    return this.#free.length;
  }
}

/**
 * The slabs one response body is received into, taken from its client's {@link SlabPool}: the
 * body's writer takes and retires them, and the one reader of the body may give each back once it
 * has passed its last piece. Only this body's slabs are ever given back through it.
 */
export class BodySlabs {
  readonly #pool: SlabPool;
  /** This body's slabs that nothing more is written to, each with the bytes it holds (weak: a reader that never frees keeps nothing alive). */
  readonly #retired = new WeakMap<ArrayBuffer, number>();

  /** @param pool - The client's pool: slabs come from it and go back to it. */
  constructor(pool: SlabPool) {
    this.#pool = pool;
  }

  /** A slab of `size` bytes to receive the body into. */
  take(size: number): Buffer {
    return this.#pool.take(size);
  }

  /**
   * Records that the body's bytes in `slab` end at `used`: nothing more is written to it, and its
   * pieces were handed out in order, so the one that ends at `used` is its last.
   */
  retire(slab: Uint8Array, used: number): void {
    // Only a slab that is its whole buffer: a slice of Node's shared pool (detachable on Node 22) never is.
    if (slab.buffer instanceof ArrayBuffer && slab.byteOffset === 0 && slab.byteLength === slab.buffer.byteLength)
      this.#retired.set(slab.buffer, used);
  }

  /** Whether `piece` is the last piece of a retired slab of this body (see {@link free}). */
  endsSlab(piece: Uint8Array): boolean {
    return piece.buffer instanceof ArrayBuffer && this.#retired.get(piece.buffer) === piece.byteOffset + piece.byteLength;
  }

  /**
   * Gives back the slab under `piece` to the pool when `piece` is its last: for the reader that
   * takes the body's pieces in order and has let go of every earlier one (copied them, or seen the
   * output take them). Every view of the slab reads as empty from then on. Any other piece, of
   * this body or not, is left alone.
   */
  free(piece: Uint8Array): void {
    if (!this.endsSlab(piece)) return;
    this.#retired.delete(piece.buffer as ArrayBuffer);
    this.#pool.give(piece.buffer as ArrayBuffer);
  }
}

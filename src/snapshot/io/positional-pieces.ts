import type { ReadAt } from "./piece-source.js";
import { unexpectedEOF } from "./stream-refusal.js";

/** Bytes per piece of {@link positionalPieces}. */
export const POSITIONAL_PIECE = 1 << 20;

/** Buffers {@link positionalPieces} reads into, in turn. */
const RING = 2;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The `size` bytes of a region read by position, piece by piece, into {@link RING} reused
 * {@link POSITIONAL_PIECE} buffers: the next piece is read while the consumer sends the last, and a
 * piece's buffer is read into again once the consumer asks for the piece after it. For a consumer
 * that lets go of a piece by then (an HTTP body that waits for the socket to take each piece before
 * it pulls another: a piece is larger than a socket's high-water mark, so its write always waits);
 * a fresh buffer per piece would instead leave the collector tens of MiB of external memory to find. `unexpected EOF` when the region is short. `ring` receives the buffers, so that
 * the caller can free them once the consumer is done with every piece (an upload that succeeded).
 * A plain iterator, not an async generator: a generator's request, promises and result objects
 * per piece were garbage enough to grow V8's young generation on a v1 push.
 */
export function positionalPieces(readAt: ReadAt, size: number, ring: Buffer[] = []): AsyncIterableIterator<Uint8Array> {
  return new PositionalPieces(readAt, size, ring);
}

class PositionalPieces implements AsyncIterableIterator<Uint8Array> {
  readonly #readAt: ReadAt;
  readonly #size: number;
  readonly #ring: Buffer[];
  #at = 0;
  #turn = 0;
  /** The read of the next piece, once the first is asked for. */
  #next: Promise<Uint8Array> | undefined;
  #done: boolean;

  constructor(readAt: ReadAt, size: number, ring: Buffer[]) {
    this.#readAt = readAt;
    this.#size = size;
    this.#ring = ring;
    this.#done = size <= 0;
  }

  async #read(): Promise<Uint8Array> {
    const slot = this.#turn++ % RING;
    const buffer = (this.#ring[slot] ??= Buffer.allocUnsafeSlow(Math.min(POSITIONAL_PIECE, this.#size)));
    const out = buffer.subarray(0, Math.min(POSITIONAL_PIECE, this.#size - this.#at));
    const offset = this.#at;
    this.#at += out.length;
    if ((await this.#readAt(out, offset)) < out.length) throw unexpectedEOF();
    return out;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#done) return DONE;
    let piece: Uint8Array;
    try {
      piece = await (this.#next ?? this.#read());
    } catch (err) {
      this.#done = true;
      this.#next = undefined;
      throw err;
    }
    this.#next = this.#at < this.#size ? this.#read() : undefined;
    // Awaited on the next call, unless the consumer stops first.
    this.#next?.catch(() => undefined);
    if (this.#next === undefined) this.#done = true;
    return { done: false, value: piece };
  }

  /** Stops: resolves once no read is left writing into a buffer, or into a closed file. */
  async return(): Promise<IteratorResult<Uint8Array>> {
    this.#done = true;
    const reading = this.#next;
    this.#next = undefined;
    await reading?.catch(() => undefined);
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

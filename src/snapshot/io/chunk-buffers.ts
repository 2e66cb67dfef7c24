import type { EntryBody } from "./byte-reader.js";

/** `ArrayBuffer.prototype.transfer` (ES2024, every supported Node), not yet in the project's `lib`. */
type Transferable = ArrayBuffer & { transfer(length?: number): ArrayBuffer };

/**
 * Detaches the memory under `view` when the view spans the whole of its `ArrayBuffer`, which frees
 * it now instead of at a later collection; views of it read as empty from then on. A view of part
 * of a buffer is left alone: the rest may belong to someone else (Node's pool hands out slices of
 * one 8 KiB buffer, and on Node 22 that buffer can be detached).
 */
export function detachWhole(view: Uint8Array): void {
  const { buffer } = view;
  if (!(buffer instanceof ArrayBuffer) || view.byteOffset !== 0 || view.byteLength !== buffer.byteLength || buffer.byteLength === 0) return;
  try {
    (buffer as Transferable).transfer(0);
  } catch {
    // not detachable: the collector frees it
  }
}

/**
 * Reusable chunk-sized buffers (the raw chunks a push reads, the compressed chunks a pull fetches):
 * a fresh chunk-sized buffer per chunk costs its page faults again each time (`BENCHMARKS.md`,
 * "Snapshot internals"), so a buffer whose chunk is done with comes back here
 * for the next one. {@link close} frees them at once instead of at a later collection.
 */
export class ChunkBuffers {
  readonly #free: Uint8Array[] = [];
  readonly #size: number;
  #closed = false;

  /** @param size - Bytes per buffer. */
  constructor(size: number) {
    this.#size = size;
  }

  /** A buffer of `length` bytes (at most the chunk size), reused when one is free; its contents are stale. */
  take(length: number): Uint8Array {
    const buf = this.#free.pop() ?? Buffer.allocUnsafeSlow(this.#size);
    return buf.subarray(0, length);
  }

  /** Gives back a buffer from {@link take} once nothing reads it any more; after {@link close}, frees it. */
  give(buf: Uint8Array): void {
    const whole = new Uint8Array(buf.buffer, buf.byteOffset, this.#size);
    if (this.#closed) detachWhole(whole);
    else this.#free.push(whole);
  }

  /** Frees every buffer given back, and each one given back later; buffers never given back are left to the collector. */
  close(): void {
    this.#closed = true;
    for (const buf of this.#free.splice(0)) detachWhole(buf);
  }
}

/** Reads the next `want` bytes of `body` into one buffer (from `buffers` when given); fewer fail with Go's `unexpected EOF`. */
export async function readChunk(body: EntryBody, want: number, buffers?: ChunkBuffers): Promise<Uint8Array> {
  const out = buffers?.take(want) ?? Buffer.allocUnsafe(want);
  try {
    await body.readInto(out);
  } catch (err) {
    buffers?.give(out);
    throw err;
  }
  return out;
}

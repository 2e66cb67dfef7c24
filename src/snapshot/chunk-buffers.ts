/**
 * Reusable chunk-sized buffers (the raw chunks a push reads, the compressed chunks a pull fetches):
 * a fresh 64 MiB buffer per chunk costs its page faults again each time (a profile of a v2 push
 * put them at a tenth of the main thread), so a buffer whose chunk is done with comes back here
 * for the next one.
 */
export class ChunkBuffers {
  readonly #free: Uint8Array[] = [];
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  /** A buffer of `length` bytes (at most the chunk size), reused when one is free; its contents are stale. */
  take(length: number): Uint8Array {
    const buf = this.#free.pop() ?? Buffer.allocUnsafeSlow(this.#size);
    return buf.subarray(0, length);
  }

  /** Gives back a buffer from {@link take} once nothing reads it any more. */
  give(buf: Uint8Array): void {
    this.#free.push(new Uint8Array(buf.buffer, buf.byteOffset, this.#size));
  }
}

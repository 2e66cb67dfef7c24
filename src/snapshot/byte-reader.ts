/** Go's `io.ErrUnexpectedEOF` text. */
export const UNEXPECTED_EOF = "unexpected EOF";

/** Reads exact byte counts from an async byte stream, keeping what a read did not consume. */
export class ByteReader {
  readonly #it: AsyncIterator<Uint8Array>;
  #buf: Uint8Array = new Uint8Array(0);
  #done = false;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.#it = source[Symbol.asyncIterator]();
  }

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    const next = await this.#it.next();
    if (next.done) {
      this.#done = true;
      return false;
    }
    const chunk = next.value instanceof Uint8Array ? next.value : Buffer.from(next.value);
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    return true;
  }

  /** Reads exactly `n` bytes; `null` at a clean end, Go's `unexpected EOF` when the stream stops inside. */
  async readExact(n: number): Promise<Uint8Array | null> {
    while (this.#buf.length < n) {
      if (!(await this.#fill())) {
        if (this.#buf.length === 0) return null;
        throw new Error(UNEXPECTED_EOF);
      }
    }
    const out = this.#buf.subarray(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }

  /** Yields the next `n` bytes in pieces as they arrive; throws `unexpected EOF` when the stream ends first. */
  async *take(n: number): AsyncGenerator<Uint8Array> {
    let left = n;
    while (left > 0) {
      if (this.#buf.length === 0 && !(await this.#fill())) throw new Error(UNEXPECTED_EOF);
      const piece = this.#buf.subarray(0, Math.min(left, this.#buf.length));
      this.#buf = this.#buf.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }

  /** Discards the next `n` bytes. */
  async skip(n: number): Promise<void> {
    for await (const _ of this.take(n)) {
      // drained
    }
  }

  /** Stops the source (a Readable is destroyed). */
  async close(): Promise<void> {
    await this.#it.return?.();
  }
}

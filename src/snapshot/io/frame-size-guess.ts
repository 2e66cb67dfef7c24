/**
 * The output buffer for a file's next frame: the last frame's size with a quarter and 1 MiB to
 * spare, rounded up to whole MiB (so freed buffers fit the next ones), the bound before any frame.
 * Chunks of one file compress alike; a frame that outgrows the guess is joined from two buffers.
 */
export class FrameSizeGuess {
  #last: number | undefined;

  /** Bytes to give the next frame's output buffer. */
  next(): number {
    if (this.#last === undefined) return Number.POSITIVE_INFINITY;
    const mib = 1 << 20;
    return Math.ceil((this.#last * 1.25 + mib) / mib) * mib;
  }

  /** Records a finished frame's size. */
  saw(size: number): void {
    this.#last = size;
  }
}

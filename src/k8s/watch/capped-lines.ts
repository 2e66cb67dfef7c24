const NEWLINE = 0x0a;

/** What {@link CappedLines.push} did with a chunk. @internal */
export type SplitOutcome = "more" | "stopped" | "too-long";

/**
 * Splits a byte stream into `\n`-terminated lines, none longer than `maxBytes`: an unfinished
 * line is kept as the chunks it came in (no copy until it ends), and one that passes the cap is
 * refused as soon as it does, so memory stays within the cap plus one chunk whatever the peer sends.
 *
 * @internal
 */
export class CappedLines {
  readonly maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes of the line begun and not ended yet. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /**
   * Hands each line that `chunk` ends to `line` (without its `\n`), until `line` returns `false`
   * (`stopped`) or a line passes the cap (`too-long`); `more` when the chunk is used up.
   */
  push(chunk: Buffer, line: (bytes: Buffer) => boolean): SplitOutcome {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.#pendingBytes + piece.length > this.maxBytes) return this.#refuse();
      let bytes = piece;
      if (this.#pendingBytes > 0) {
        this.#pending.push(piece);
        bytes = Buffer.concat(this.#pending, this.#pendingBytes + piece.length);
        this.#pending = [];
        this.#pendingBytes = 0;
      }
      if (!line(bytes)) return "stopped";
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.#pendingBytes + rest.length > this.maxBytes) return this.#refuse();
      this.#pending.push(rest);
      this.#pendingBytes += rest.length;
    }
    return "more";
  }

  #refuse(): "too-long" {
    this.#pending = [];
    this.#pendingBytes = 0;
    return "too-long";
  }
}

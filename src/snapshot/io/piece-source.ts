/** Reads `out.length` bytes at `offset` of a region into `out`; fewer mean the source ended. */
export type ReadAt = (out: Uint8Array, offset: number) => Promise<number>;

/** Where a read of an export goes: the next piece, or straight into a caller's buffer. */
export interface PieceSource {
  /** The next bytes, or `undefined` at the end. */
  next(): Promise<Uint8Array | undefined>;
  /** Reads up to `out.length` bytes into `out` without an intermediate piece; 0 at the end. Absent on a plain stream. */
  readonly readInto?: (out: Uint8Array) => Promise<number>;
  /**
   * Passes over the next `length` bytes without reading them and returns positional reads of
   * them, so several regions can be read at once, each when it is needed. Absent on a plain stream.
   * With `back`, the region starts that many bytes before the next: bytes already read, which the
   * caller can then let go of.
   */
  readonly reserve?: (length: number, back?: number) => ReadAt;
  /** Stops reading and frees what the source holds. */
  close(): Promise<void>;
}

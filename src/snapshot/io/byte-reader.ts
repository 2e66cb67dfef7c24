import { unexpectedEOF } from "./stream-refusal.js";
import { pieceSourceOf } from "./export-file.js";
import type { PieceSource, ReadAt } from "./piece-source.js";

/** The bytes of one tar entry: iterated in pieces, or read straight into a caller's buffer. */
export interface EntryBody extends AsyncGenerator<Uint8Array> {
  /** Fills `out` with the entry's next `out.length` bytes; `unexpected EOF` when fewer are left in the stream. */
  readInto(out: Uint8Array): Promise<void>;
  /** Bytes of the entry not read yet. */
  readonly left: number;
  /**
   * Passes over the entry's next `length` bytes and returns positional reads of them, when the
   * export is a file; `undefined` otherwise (read them with {@link readInto} then).
   */
  region(length: number): ReadAt | undefined;
}

/** Reads exact byte counts from an async byte stream, keeping what a read did not consume. */
export class ByteReader {
  readonly #source: PieceSource;
  #buf: Uint8Array = new Uint8Array(0);
  #done = false;

  /** @param input - The bytes; an `ExportFile` is read positionally, straight into the buffers of {@link readInto}. */
  constructor(input: AsyncIterable<Uint8Array>) {
    this.#source = pieceSourceOf(input);
  }

  async #fill(): Promise<boolean> {
    if (this.#done) return false;
    const chunk = await this.#source.next();
    if (chunk === undefined) {
      this.#done = true;
      return false;
    }
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    return true;
  }

  /**
   * Reads exactly `n` bytes; `null` at a clean end, Go's `unexpected EOF` when the stream stops
   * inside. The pieces are joined once, so a long read of small pieces costs linear time.
   */
  async readExact(n: number): Promise<Uint8Array | null> {
    if (this.#buf.length < n) {
      const parts = this.#buf.length > 0 ? [this.#buf] : [];
      let have = this.#buf.length;
      while (have < n) {
        const chunk = this.#done ? undefined : await this.#source.next();
        if (chunk === undefined) {
          this.#done = true;
          this.#buf = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, have);
          if (have === 0) return null;
          throw unexpectedEOF();
        }
        parts.push(chunk);
        have += chunk.length;
      }
      this.#buf = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, have);
    }
    const out = this.#buf.subarray(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }

  /** Fills `out` with the next `out.length` bytes: what is buffered, then straight from a positional source; `unexpected EOF` when the stream ends first. */
  async readInto(out: Uint8Array): Promise<void> {
    let at = 0;
    while (at < out.length) {
      if (this.#buf.length === 0) {
        const direct = this.#done ? undefined : this.#source.readInto;
        if (direct !== undefined) {
          const n = await direct(out.subarray(at));
          if (n === 0) this.#done = true;
          else at += n;
          continue;
        }
        if (!(await this.#fill())) throw unexpectedEOF();
      }
      const take = Math.min(this.#buf.length, out.length - at);
      out.set(take === this.#buf.length ? this.#buf : this.#buf.subarray(0, take), at);
      this.#buf = this.#buf.subarray(take);
      at += take;
    }
  }

  /**
   * Reads of the next `length` bytes, passed over, when the source reads by position: read from
   * the source where they lie, the buffered ones too when the region takes them all (the buffer,
   * up to an `EXPORT_READ_SIZE` piece, is let go instead of held for the region's life);
   * otherwise the bytes already buffered are kept for them.
   */
  #reserve(length: number): ReadAt | undefined {
    const reserve = this.#done ? undefined : this.#source.reserve;
    if (reserve === undefined) return undefined;
    if (length >= this.#buf.length) {
      const back = this.#buf.length;
      this.#buf = new Uint8Array(0);
      return reserve(length, back);
    }
    const head = this.#buf.subarray(0, Math.min(length, this.#buf.length));
    this.#buf = this.#buf.subarray(head.length);
    const tail = reserve(length - head.length);
    return async (out, offset) => {
      let n = 0;
      if (offset < head.length) {
        n = Math.min(out.length, head.length - offset);
        out.set(head.subarray(offset, offset + n));
      }
      return n < out.length ? n + (await tail(out.subarray(n), offset + n - head.length)) : n;
    };
  }

  /** The next piece as it arrived, cut at `max` bytes; `unexpected EOF` at the end of the stream. */
  async #piece(max: number): Promise<Uint8Array> {
    if (this.#buf.length === 0 && !(await this.#fill())) throw unexpectedEOF();
    const piece = this.#buf.subarray(0, Math.min(max, this.#buf.length));
    this.#buf = this.#buf.subarray(piece.length);
    return piece;
  }

  /** The next `n` bytes as an entry body, readable either way; {@link EntryBody.left} counts what is still unread. */
  body(n: number): EntryBody {
    let left = n;
    const piece = (max: number): Promise<Uint8Array> => this.#piece(max);
    const pieces = (async function* (): AsyncGenerator<Uint8Array> {
      while (left > 0) {
        const next = await piece(left);
        left -= next.length;
        yield next;
      }
    })();
    const readInto = async (out: Uint8Array): Promise<void> => {
      if (out.length > left) throw unexpectedEOF();
      await this.readInto(out);
      left -= out.length;
    };
    const region = (length: number): ReadAt | undefined => {
      if (length > left) return undefined;
      const read = this.#reserve(length);
      if (read !== undefined) left -= length;
      return read;
    };
    return Object.defineProperties(pieces, {
      readInto: { value: readInto },
      region: { value: region },
      left: { get: () => left },
    }) as EntryBody;
  }

  /** Discards the next `n` bytes; `unexpected EOF` when the stream ends first. */
  async skip(n: number): Promise<void> {
    for (let left = n; left > 0;) left -= (await this.#piece(left)).length;
  }

  /** Stops the source (a Readable is destroyed, a file closed). */
  async close(): Promise<void> {
    await this.#source.close();
  }
}

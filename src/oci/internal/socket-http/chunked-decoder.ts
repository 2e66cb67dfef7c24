import { isFieldLine, ProtocolError } from "./response-head.js";

/** The longest chunk-size line (size and extensions) and the most trailer bytes accepted. */
const MAX_SIZE_LINE = 1024;
const MAX_TRAILER_BYTES = 16 * 1024;

const State = { Size: 0, Data: 1, DataEnd: 2, Trailer: 3, Done: 4 } as const;
type State = (typeof State)[keyof typeof State];

/**
 * Decodes `Transfer-Encoding: chunked` (RFC 9112 §7.1) as bytes arrive, handing each run of body
 * bytes to `emit` as a range of the buffer it was given (no copy). Strict: hexadecimal sizes of at
 * most 13 digits, CRLF everywhere, capped size lines and trailers.
 */
export class ChunkedDecoder {
  #state: State = State.Size;
  #line = "";
  #remaining = 0;
  #trailerBytes = 0;

  /** Whether the last chunk and the trailers have been read. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /**
   * Decodes `buf[from..to)`; returns where the chunked body ended in it (`to` when it has not).
   *
   * @throws ProtocolError for a malformed size line, chunk end or trailer.
   */
  feed(buf: Uint8Array, from: number, to: number, emit: (buf: Uint8Array, from: number, to: number) => void): number {
    let i = from;
    while (i < to && this.#state !== State.Done) {
      if (this.#state === State.Data) {
        const take = Math.min(this.#remaining, to - i);
        emit(buf, i, i + take);
        i += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = State.DataEnd;
        continue;
      }
      const lf = buf.indexOf(0x0a, i);
      const end = lf < 0 || lf >= to ? to : lf + 1;
      this.#line += Buffer.from(buf.buffer, buf.byteOffset + i, end - i).toString("latin1");
      i = end;
      const limit = this.#state === State.Trailer ? MAX_TRAILER_BYTES - this.#trailerBytes : MAX_SIZE_LINE;
      if (this.#line.length > limit)
        throw new ProtocolError(this.#state === State.Trailer ? "chunked trailers too long" : "chunk size line too long");
      if (!this.#line.endsWith("\n")) continue;
      if (!this.#line.endsWith("\r\n")) throw new ProtocolError("chunked body line not ended by CRLF");
      const line = this.#line.slice(0, -2);
      this.#line = "";
      this.#onLine(line);
    }
    return i;
  }

  #onLine(line: string): void {
    switch (this.#state) {
      case State.Size: {
        const size = /^([0-9a-fA-F]{1,13})(?:[\t ]*;[\t\x20-\x7e]*)?$/.exec(line);
        if (size === null) throw new ProtocolError(`malformed chunk size ${JSON.stringify(line.slice(0, 40))}`);
        this.#remaining = parseInt(size[1] ?? "", 16);
        this.#state = this.#remaining === 0 ? State.Trailer : State.Data;
        return;
      }
      case State.DataEnd:
        if (line !== "") throw new ProtocolError("chunk data longer than its size");
        this.#state = State.Size;
        return;
      case State.Trailer:
        if (line === "") {
          this.#state = State.Done;
          return;
        }
        if (!isFieldLine(line)) throw new ProtocolError("malformed chunked trailer");
        this.#trailerBytes += line.length + 2;
        return;
      default:
        return;
    }
  }
}

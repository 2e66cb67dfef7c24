import { unexpectedEOF } from "../io/stream-refusal.js";
import { MagicError } from "./zstd-errors.js";
import { SKIPPABLE_MAGIC, ZSTD_MAGIC } from "./zstd-header.js";

/** Marks the end of a zstd frame among the pieces {@link FrameSplitter} emits. */
export const FRAME_END = Symbol("zstd frame end");

type State = "magic" | "skipSize" | "skip" | "fhd" | "headerRest" | "block" | "body" | "checksum";

/**
 * Cuts a zstd byte stream at frame boundaries from the frame and block headers alone, without
 * decoding: Node 22's zstd decoder stops after the first frame, so each frame is decoded on its
 * own. Skippable frames are dropped.
 */
export class FrameSplitter {
  readonly #field = new Uint8Array(14);
  #fieldLength = 0;
  #need = 4;
  #state: State = "magic";
  #checksum = false;
  #lastBlock = false;
  #position = 0;
  #frameStart = 0;

  /** Whether the bytes so far end exactly between frames. */
  get atBoundary(): boolean {
    return this.#state === "magic" && this.#fieldLength === 0;
  }

  /** Offsets of the frame that ended at the latest {@link FRAME_END}, counted over every byte fed. */
  get lastFrame(): { readonly start: number; readonly end: number } {
    return { start: this.#frameStart, end: this.#position };
  }

  /** Feeds bytes; yields the bytes of zstd frames (pieces of `chunk` or copied header bytes) and a {@link FRAME_END} after each frame. */
  *split(chunk: Uint8Array): Generator<Uint8Array | typeof FRAME_END> {
    let at = 0;
    while (at < chunk.length) {
      const take = Math.min(this.#need, chunk.length - at);
      const part = chunk.subarray(at, at + take);
      at += take;
      this.#position += take;
      this.#need -= take;
      if (this.#state === "skip") {
        if (this.#need === 0) this.#next("magic", 4);
        continue;
      }
      if (this.#state === "body") {
        yield part;
        if (this.#need === 0) yield* this.#afterBlock();
        continue;
      }
      this.#field.set(part, this.#fieldLength);
      this.#fieldLength += take;
      if (this.#need === 0) yield* this.#onField(this.#field.slice(0, this.#fieldLength));
    }
  }

  #next(state: State, need: number): void {
    this.#state = state;
    this.#need = need;
    this.#fieldLength = 0;
  }

  *#onField(field: Uint8Array): Generator<Uint8Array | typeof FRAME_END> {
    const u32 = field.length >= 4 ? new DataView(field.buffer).getUint32(0, true) : 0;
    switch (this.#state) {
      case "magic":
        if (u32 === ZSTD_MAGIC) {
          this.#frameStart = this.#position - 4;
          yield field;
          this.#next("fhd", 1);
        } else if ((u32 & 0xfffffff0) === SKIPPABLE_MAGIC) this.#next("skipSize", 4);
        else throw new MagicError();
        return;
      case "skipSize":
        this.#next(u32 === 0 ? "magic" : "skip", u32 === 0 ? 4 : u32);
        return;
      case "fhd": {
        yield field;
        const fhd = field[0] as number;
        this.#checksum = hasChecksum(fhd);
        const rest = headerRest(fhd);
        if (rest > 0) this.#next("headerRest", rest);
        else this.#next("block", 3);
        return;
      }
      case "headerRest":
        yield field;
        this.#next("block", 3);
        return;
      case "block": {
        yield field;
        const header = blockHeader(field, 0);
        this.#lastBlock = (header & 1) === 1;
        const body = blockBody(header);
        this.#next("body", body);
        if (body === 0) yield* this.#afterBlock();
        return;
      }
      case "checksum":
        yield field;
        yield FRAME_END;
        this.#next("magic", 4);
        return;
      default:
        return;
    }
  }

  *#afterBlock(): Generator<Uint8Array | typeof FRAME_END> {
    if (!this.#lastBlock) this.#next("block", 3);
    else if (this.#checksum) this.#next("checksum", 4);
    else {
      yield FRAME_END;
      this.#next("magic", 4);
    }
  }
}

/** Whether a frame whose header descriptor is `fhd` ends with a 4-byte checksum (RFC 8878 §3.1.1.1.1). */
function hasChecksum(fhd: number): boolean {
  return ((fhd >> 2) & 1) === 1;
}

/** The header bytes after the descriptor `fhd`: window descriptor, dictionary id and content size. */
function headerRest(fhd: number): number {
  const single = (fhd >> 5) & 1;
  return (single ? 0 : 1) + ([0, 1, 2, 4][fhd & 3] as number) + ([single, 2, 4, 8][fhd >> 6] as number);
}

/** The 3-byte little-endian block header at `at`. */
function blockHeader(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16);
}

/** The bytes after a block's header: one for an RLE block, its size for any other. */
function blockBody(header: number): number {
  return ((header >> 1) & 3) === 1 ? 1 : header >> 3;
}

/**
 * The zstd frames of one buffer, each a view of it (skippable frames left out), walked from their
 * headers as {@link FrameSplitter} cuts a stream: bytes that start no frame throw
 * {@link MagicError}, a buffer that ends inside a frame Go's `unexpected EOF`.
 */
export function framesOf(data: Uint8Array): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: Uint8Array[] = [];
  const within = (end: number): void => {
    if (end > data.length) throw unexpectedEOF();
  };
  let at = 0;
  while (at < data.length) {
    within(at + 4);
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === SKIPPABLE_MAGIC) {
      within(at + 8);
      at += 8 + view.getUint32(at + 4, true);
      within(at);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new MagicError();
    const start = at;
    within(at + 5);
    const fhd = data[at + 4] as number;
    at += 5 + headerRest(fhd);
    for (let last = false; !last;) {
      within(at + 3);
      const header = blockHeader(data, at);
      last = (header & 1) === 1;
      at += 3 + blockBody(header);
    }
    if (hasChecksum(fhd)) at += 4;
    within(at);
    frames.push(data.subarray(start, at));
  }
  return frames;
}

import { unexpectedEOF } from "../io/stream-refusal.js";
import type { ReadAt } from "../io/piece-source.js";
import { nodeZstd } from "./node-zstd.js";

/**
 * Bytes per write into a frame's encoder. A frame's bytes depend on how its input was cut into
 * writes, so every frame is written in pieces of this size, whatever the export came in: the same
 * chunk always gives the same blob. Pieces this size stay in the CPU's cache between being read
 * and zstd copying them into its window.
 */
export const FRAME_PIECE = 4 << 20;

/** zstd's `ZSTD_COMPRESSBOUND`: the most bytes a frame of `n` input bytes can take. */
export function compressBound(n: number): number {
  return n + Math.floor(n / 256) + (n < 128 << 10 ? Math.floor(((128 << 10) - n) / 2048) : 0);
}

/** The parts as one buffer: a view when they lie back to back in one allocation, else a copy. */
function joined(parts: readonly Buffer[]): Uint8Array {
  const first = parts[0];
  if (first === undefined) return new Uint8Array(0);
  let end = first.byteOffset + first.length;
  for (const p of parts.slice(1)) {
    if (p.buffer !== first.buffer || p.byteOffset !== end) return Buffer.concat(parts);
    end += p.length;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

/**
 * One zstd frame being written (Node's zlib on the libuv thread pool): `length` bytes in
 * {@link FRAME_PIECE} writes, each awaited, so no write is pending when the input ends and every
 * piece goes in with zstd's "continue"; the end is an empty write with "end".
 */
class FrameEncoder {
  readonly #encoder;
  readonly #parts: Buffer[] = [];
  readonly #ended: Promise<void>;

  constructor(length: number, level: number, expected: number) {
    this.#encoder = nodeZstd().createZstdCompress({
      pledgedSrcSize: length,
      chunkSize: Math.max(Math.min(compressBound(length), expected), 64),
      params: { [nodeZstd().constants.ZSTD_c_compressionLevel]: level },
    });
    this.#encoder.on("data", (part: Buffer) => this.#parts.push(part));
    this.#ended = new Promise((resolve, reject) => {
      this.#encoder.once("error", reject);
      this.#encoder.once("end", resolve);
    });
    this.#ended.catch(() => undefined); // awaited by finish, or the failing write reports it
  }

  /** Hands zstd one piece; resolves once zstd has taken it, so its buffer can be refilled. */
  write(piece: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#encoder.write(piece, (err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }

  /** Ends the frame and returns it, as one view when zstd wrote it into one buffer. */
  async finish(): Promise<Uint8Array> {
    this.#encoder.end();
    await this.#ended;
    return joined(this.#parts);
  }

  /** Stops an unfinished frame. */
  abandon(): void {
    this.#encoder.destroy();
  }
}

/** Writes `pieces` (of `length` bytes in all, each {@link FRAME_PIECE} but the last) as one frame. */
async function encodeFrame(
  pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  length: number,
  level: number,
  expected: number,
): Promise<Uint8Array> {
  const encoder = new FrameEncoder(length, level, expected);
  try {
    for await (const piece of pieces) await encoder.write(piece);
  } catch (err) {
    encoder.abandon();
    throw err;
  }
  return encoder.finish();
}

/** `data` cut into {@link FRAME_PIECE} views. */
function* slices(data: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < data.length; at += FRAME_PIECE) yield data.subarray(at, at + FRAME_PIECE);
}

/**
 * Compresses `data` into one zstd frame whose header holds the content size, written in
 * {@link FRAME_PIECE} pieces on the thread pool, so several chunks compress at once. zstd never
 * declares a window larger than the content, so Go's per-chunk cap accepts the frame. The frame
 * is written into one output buffer of `expected` bytes (the bound when not given) and handed out
 * as a view; a larger frame spills into more buffers and is joined. A good guess matters: each
 * buffer is external memory to V8, and a chunk-sized one per chunk sets off full collections
 * (`BENCHMARKS.md`, "Snapshot internals").
 */
export async function compressFrame(data: Uint8Array, level: number, expected = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  return encodeFrame(slices(data), data.length, level, expected);
}

/**
 * The {@link FRAME_PIECE} pieces of `length` bytes read by `read`, alternately into the two
 * `pieces` buffers: the next piece is being read while the current one is handed out.
 */
async function* readAhead(read: ReadAt, length: number, pieces: readonly [Uint8Array, Uint8Array]): AsyncGenerator<Uint8Array> {
  const readPiece = async (k: number): Promise<Uint8Array> => {
    const out = (pieces[k % 2] as Uint8Array).subarray(0, Math.min(FRAME_PIECE, length - k * FRAME_PIECE));
    if ((await read(out, k * FRAME_PIECE)) < out.length) throw unexpectedEOF();
    return out;
  };
  const count = Math.ceil(length / FRAME_PIECE);
  let next = count > 0 ? readPiece(0) : undefined;
  for (let k = 0; k < count; k++) {
    const piece = await (next as Promise<Uint8Array>);
    next = k + 1 < count ? readPiece(k + 1) : undefined;
    next?.catch(() => undefined); // awaited on the next turn, unless this piece's write fails first
    yield piece;
  }
}

/**
 * {@link compressFrame} of `length` bytes read by `read`, piece by piece into the two `pieces`
 * buffers (each {@link FRAME_PIECE} bytes): the next piece is read while zstd takes the current
 * one, and no chunk-sized buffer is needed. The same bytes give the same frame as
 * `compressFrame`. A short read fails with Go's `unexpected EOF`.
 */
export async function compressRead(
  read: ReadAt,
  length: number,
  level: number,
  expected: number,
  pieces: readonly [Uint8Array, Uint8Array],
): Promise<Uint8Array> {
  return encodeFrame(readAhead(read, length, pieces), length, level, expected);
}

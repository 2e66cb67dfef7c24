import { pipeline, Readable } from "node:stream";
import { nodeZstd, type NodeZstdOptions } from "./node-zstd.js";
import { FRAME_END, FrameSplitter, framesOf, MagicError, SKIPPABLE_MAGIC, ZSTD_MAGIC } from "./zstd-frames.js";

/** Output buffers of compression and of streamed decoding; large ones save zlib round trips. */
const OUTPUT_CHUNK = 1 << 20;

/** Node's one-shot `zstdDecompress`, as a promise. */
function decompress(data: Uint8Array, options: NodeZstdOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    nodeZstd().zstdDecompress(data, options, (err, out) => {
      if (err) reject(err);
      else resolve(out);
    });
  });
}

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
 * Bytes per write into a frame's encoder. A frame's bytes depend on how its input was cut into
 * writes, so every frame is written in pieces of this size, whatever the export came in: the same
 * chunk always gives the same blob. Pieces this size stay in the CPU's cache between being read
 * and zstd copying them into its window.
 */
export const FRAME_PIECE = 4 << 20;

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

/**
 * Compresses `data` into one zstd frame whose header holds the content size, written in
 * {@link FRAME_PIECE} pieces on the thread pool, so several chunks compress at once. zstd never
 * declares a window larger than the content, so Go's per-chunk cap accepts the frame. The frame
 * is written into one output buffer of `expected` bytes (the bound when not given) and handed out
 * as a view; a larger frame spills into more buffers and is joined. A good guess matters: each
 * buffer is external memory to V8, and a 64 MiB one per chunk set off a full collection every few
 * chunks.
 */
export async function compressFrame(data: Uint8Array, level: number, expected = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  const encoder = new FrameEncoder(data.length, level, expected);
  try {
    for (let at = 0; at < data.length; at += FRAME_PIECE) await encoder.write(data.subarray(at, at + FRAME_PIECE));
  } catch (err) {
    encoder.abandon();
    throw err;
  }
  return encoder.finish();
}

/** Reads `out.length` bytes at `offset` of a region into `out`; fewer mean the source ended. */
export type ReadAt = (out: Uint8Array, offset: number) => Promise<number>;

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
  const encoder = new FrameEncoder(length, level, expected);
  const readPiece = async (k: number): Promise<Uint8Array> => {
    const out = (pieces[k % 2] as Uint8Array).subarray(0, Math.min(FRAME_PIECE, length - k * FRAME_PIECE));
    if ((await read(out, k * FRAME_PIECE)) < out.length) throw new Error("unexpected EOF");
    return out;
  };
  const count = Math.ceil(length / FRAME_PIECE);
  try {
    let next = count > 0 ? readPiece(0) : undefined;
    for (let k = 0; k < count; k++) {
      const piece = await (next as Promise<Uint8Array>);
      next = k + 1 < count ? readPiece(k + 1) : undefined;
      next?.catch(() => undefined); // awaited on the next turn, unless this write fails first
      await encoder.write(piece);
    }
  } catch (err) {
    encoder.abandon();
    throw err;
  }
  return encoder.finish();
}

/** What a zstd frame header declares. */
export interface FrameHeader {
  /** Window size in bytes (the content size for a single-segment frame). */
  readonly windowSize: number;
  /** Declared content size, or `undefined` when the header has none. */
  readonly contentSize: number | undefined;
}

/** Reads the first frame header, skipping skippable frames; `undefined` when the magic number is wrong. */
export function readFrameHeader(data: Uint8Array): FrameHeader | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at + 8 <= data.length && (view.getUint32(at, true) & 0xfffffff0) === SKIPPABLE_MAGIC) {
    at += 8 + view.getUint32(at + 4, true);
  }
  if (at + 5 > data.length || view.getUint32(at, true) !== ZSTD_MAGIC) return undefined;
  const fhd = data[at + 4] as number;
  const singleSegment = (fhd >> 5) & 1;
  const fcsFlag = fhd >> 6;
  let pos = at + 5;
  let windowSize = 0;
  if (!singleSegment) {
    const wd = data[pos++] ?? 0;
    const base = 2 ** (10 + (wd >> 3));
    windowSize = base + (base / 8) * (wd & 7);
  }
  pos += [0, 1, 2, 4][fhd & 3] as number;
  const fcsSize = fcsFlag === 0 ? singleSegment : 2 ** fcsFlag;
  let contentSize: number | undefined;
  if (fcsSize > 0 && pos + fcsSize <= data.length) {
    contentSize = 0;
    for (let i = fcsSize - 1; i >= 0; i--) contentSize = contentSize * 256 + (data[pos + i] as number);
    if (fcsSize === 2) contentSize += 256;
  }
  return { windowSize: singleSegment ? (contentSize ?? 0) : windowSize, contentSize };
}

/** Go's klauspost error texts, so error messages read the same from both pulls. */
export const ZstdMessage = {
  Magic: "invalid input: magic number mismatch",
  Window: "window size exceeded",
  TooLarge: "decompressed size exceeds configured limit",
} as const;

/** zlib's failures under Go's texts where Go has one; other decoder errors keep zstd's own text. */
function goError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ZSTD_error_prefix_unknown") return new Error(ZstdMessage.Magic, { cause: err });
  if (code === "ZSTD_error_frameParameter_windowTooLarge") return new Error(ZstdMessage.Window, { cause: err });
  if (code === "ERR_BUFFER_TOO_LARGE") return new Error(ZstdMessage.TooLarge, { cause: err });
  return err;
}

function windowLogMax(cap: number): number {
  return Math.min(Math.max(Math.ceil(Math.log2(Math.max(cap, 1))), 10), 31);
}

/**
 * Output pieces of a decoded frame that declares its size: a 64 MiB buffer per chunk is mapped
 * afresh and faulted in page by page each time, and freed only by a full collection, where
 * pieces this size come back from the allocator's free lists (a sparse v2 pull spent a quarter
 * of its main thread in the collector).
 */
const DECODED_PIECE = 4 << 20;

/** Decodes a frame that declares its size into {@link DECODED_PIECE}-sized pieces (zstd itself refuses content past the declared size). */
function decodePieces(frame: Uint8Array, windowLog: number): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const decoder = nodeZstd().createZstdDecompress({
      chunkSize: DECODED_PIECE,
      params: { [nodeZstd().constants.ZSTD_d_windowLogMax]: windowLog },
    });
    const pieces: Uint8Array[] = [];
    decoder.on("data", (piece: Uint8Array) => pieces.push(piece));
    decoder.once("error", reject);
    decoder.once("end", () => resolve(pieces));
    decoder.end(frame);
  });
}

/** Decodes one frame into one or more pieces, refusing a window above `cap` or more than `left` output bytes. */
async function decodeFrame(frame: Uint8Array, cap: number, left: number): Promise<Uint8Array[]> {
  const header = readFrameHeader(frame);
  if (header === undefined) throw new Error(ZstdMessage.Magic);
  if (header.windowSize > cap) throw new Error(ZstdMessage.Window);
  if (header.contentSize !== undefined && header.contentSize > left) throw new Error(ZstdMessage.TooLarge);
  if (header.contentSize === 0) return [];
  try {
    if (header.contentSize !== undefined && header.contentSize > DECODED_PIECE) return await decodePieces(frame, windowLogMax(cap));
    return [
      await decompress(frame, {
        // One output buffer of the declared size: zlib's default 16 KiB pieces make decoding several times slower.
        chunkSize: Math.max(header.contentSize ?? Math.min(left, OUTPUT_CHUNK), 64),
        maxOutputLength: Math.max(left, 1),
        params: { [nodeZstd().constants.ZSTD_d_windowLogMax]: windowLogMax(cap) },
      }),
    ];
  } catch (err) {
    throw goError(err);
  }
}

/**
 * Decodes one chunk on its own, frame by frame, refusing any frame whose window exceeds `cap` and
 * an output above `cap`, as Go's windowed pull does; the output comes in pieces. Throws an
 * `Error` whose message is Go's text.
 */
export async function decodeChunkPieces(data: Uint8Array, cap: number): Promise<Uint8Array[]> {
  let frames: Uint8Array[];
  try {
    frames = framesOf(data);
  } catch (err) {
    throw err instanceof MagicError ? new Error(ZstdMessage.Magic) : err;
  }
  const out: Uint8Array[] = [];
  let left = cap;
  for (const frame of frames) {
    for (const piece of await decodeFrame(frame, cap, left)) {
      left -= piece.length;
      out.push(piece);
    }
  }
  return out;
}

/** {@link decodeChunkPieces} as one buffer. */
export async function decodeChunk(data: Uint8Array, cap: number): Promise<Uint8Array> {
  const pieces = await decodeChunkPieces(data, cap);
  return pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces);
}

/** The bytes of `source`, with a {@link FRAME_END} after each frame; a stream that stops inside a frame fails. */
async function* splitFrames(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array | typeof FRAME_END> {
  const splitter = new FrameSplitter();
  try {
    for await (const chunk of source) yield* splitter.split(chunk);
  } catch (err) {
    throw err instanceof MagicError ? new Error(ZstdMessage.Magic) : err;
  }
  if (!splitter.atBoundary) throw new Error("unexpected EOF");
}

/**
 * Decodes concatenated zstd frames as they stream in (Go's streaming decoder for an unchunked
 * file or a sequential pull), one zlib decoder per frame on the thread pool, pulled as the
 * consumer reads; a wrong magic number fails with Go's text.
 */
export async function* decodeStream(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const events = splitFrames(source);
  try {
    for (;;) {
      const first = await events.next();
      if (first.done === true) return;
      const input = { done: false };
      const frame = async function* (): AsyncGenerator<Uint8Array> {
        if (first.value !== FRAME_END) yield first.value;
        for (;;) {
          const next = await events.next();
          if (next.done === true) input.done = true;
          if (next.done === true || next.value === FRAME_END) return;
          yield next.value;
        }
      };
      const decoder = nodeZstd().createZstdDecompress({ chunkSize: OUTPUT_CHUNK });
      const piped = pipeline(Readable.from(frame(), { objectMode: false }), decoder, () => undefined);
      try {
        for await (const chunk of piped as AsyncIterable<Uint8Array>) yield chunk;
      } catch (err) {
        throw goError(err);
      }
      if (input.done) return;
    }
  } finally {
    await events.return(undefined);
  }
}

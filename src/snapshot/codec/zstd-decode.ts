import { unexpectedEOF } from "../io/stream-refusal.js";
import { nodeZstd, type NodeZstdOptions } from "./node-zstd.js";
import { goZstdError, MagicError, ZstdMessage } from "./zstd-errors.js";
import { framesOf } from "./zstd-frames.js";
import { type FrameHeaderFields, frameHeaderFields } from "./zstd-header.js";
import { canDecodeInto, decodeFrameInto } from "./zstd-into.js";
import { OUTPUT_CHUNK } from "./zstd-stream.js";

/** Node's one-shot `zstdDecompress`, as a promise. */
function decompress(data: Uint8Array, options: NodeZstdOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    nodeZstd().zstdDecompress(data, options, (err, out) => {
      if (err) reject(err);
      else resolve(out);
    });
  });
}

function windowLogMax(cap: number): number {
  return Math.min(Math.max(Math.ceil(Math.log2(Math.max(cap, 1))), 10), 31);
}

/**
 * Output pieces of a decoded frame that declares its size: a chunk-sized buffer per chunk is
 * mapped afresh and faulted in page by page each time, and freed only by a full collection, where
 * pieces this size come back from the allocator's free lists (`BENCHMARKS.md`, "Snapshot internals").
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

/**
 * Klauspost's checks of one frame before it is decoded: a window descriptor above `cap` is
 * `window size exceeded`; a single-segment frame, whose window is its declared content size,
 * passing `cap` is `decompressed size exceeds configured limit`, as is a declared size above the
 * `left` output bytes.
 */
function checkFrame(frame: Uint8Array, cap: number, left: number): FrameHeaderFields {
  const header = frameHeaderFields(frame);
  if (header === undefined) throw new Error(ZstdMessage.Magic);
  if (header.windowSize > cap) throw new Error(header.singleSegment ? ZstdMessage.TooLarge : ZstdMessage.Window);
  if (header.contentSize !== undefined && header.contentSize > left) throw new Error(ZstdMessage.TooLarge);
  return header;
}

/** Decodes one frame into one or more pieces, refusing a window above `cap` or more than `left` output bytes ({@link checkFrame}). */
async function decodeFrame(frame: Uint8Array, cap: number, left: number): Promise<Uint8Array[]> {
  const header = checkFrame(frame, cap, left);
  if (header.contentSize === 0) return [];
  try {
    if (header.contentSize !== undefined && header.contentSize > DECODED_PIECE) return await decodePieces(frame, windowLogMax(cap));
    return [
      await decompress(frame, {
        // One output buffer of the declared size: zlib's default 16 KiB pieces make decoding much slower.
        chunkSize: Math.max(header.contentSize ?? Math.min(left, OUTPUT_CHUNK), 64),
        maxOutputLength: Math.max(left, 1),
        params: { [nodeZstd().constants.ZSTD_d_windowLogMax]: windowLogMax(cap) },
      }),
    ];
  } catch (err) {
    throw goZstdError(err);
  }
}

function splitChunk(data: Uint8Array): Uint8Array[] {
  try {
    return framesOf(data);
  } catch (err) {
    throw err instanceof MagicError ? new Error(ZstdMessage.Magic) : err;
  }
}

/** Whether every frame declares its content size and together they fit `room` bytes. */
function declaredWithin(frames: readonly Uint8Array[], room: number): boolean {
  let total = 0;
  for (const frame of frames) {
    const size = frameHeaderFields(frame)?.contentSize;
    if (size === undefined) return false;
    total += size;
  }
  return total <= room;
}

/** Decodes `frames`, each of which declares its size, one after another into `into`; the checks are {@link decodeFrame}'s. */
async function decodeFramesInto(frames: readonly Uint8Array[], cap: number, into: Uint8Array): Promise<Uint8Array> {
  let at = 0;
  for (const frame of frames) {
    const size = checkFrame(frame, cap, cap - at).contentSize as number;
    if (size === 0) continue;
    let decoded: number;
    try {
      decoded = await decodeFrameInto(frame, into.subarray(at, at + size + 1), windowLogMax(cap));
    } catch (err) {
      throw goZstdError(err);
    }
    if (decoded !== size) throw unexpectedEOF();
    at += size;
  }
  return into.subarray(0, at);
}

/**
 * Decodes one chunk on its own, frame by frame, refusing any frame whose window exceeds `cap` and
 * an output above `cap`, as Go's windowed pull does. With `into` (room for `cap + 1` bytes), a
 * chunk whose frames all declare their sizes is decoded into it, as its one piece; otherwise the
 * output comes in pieces Node allocates. Throws an `Error` whose message is Go's text.
 */
export async function decodeChunkPieces(data: Uint8Array, cap: number, into?: Uint8Array): Promise<Uint8Array[]> {
  const frames = splitChunk(data);
  if (into !== undefined && into.length > cap && canDecodeInto() && declaredWithin(frames, cap)) {
    return [await decodeFramesInto(frames, cap, into)];
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

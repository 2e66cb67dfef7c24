import { CocoonError, isCocoonError } from "../errors.js";
import type { Descriptor } from "../oci/manifest-types.js";
import { mediaTypeForCocoonFile, zstdMediaType } from "../oci/media-types.js";
import type { Uploader } from "../oci/registry.js";
import { messageOf } from "./blob-reader.js";
import type { EntryBody } from "./byte-reader.js";
import { STREAM_ABOVE, uploadLayer, uploadStreamed } from "./blob-upload.js";
import { ChunkBuffers } from "./chunk-buffers.js";
import { compressFrame } from "./zstd.js";

/** Frames of a single-layer (unchunked) zstd file: one-shot frames of this many input bytes. */
const STREAM_FRAME = 4 << 20;
const MAX_CHUNKS = 2 ** 20;

/** Runs at most `limit` uploads at once; the first failure stops new work and is the one reported. */
export class UploadPool {
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether an upload has failed. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Waits for a free slot, then starts `task`. */
  async start(task: () => Promise<void>): Promise<void> {
    while (this.#running.size >= this.#limit) await Promise.race(this.#running);
    if (this.#failure) return;
    const p: Promise<void> = task()
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => this.#running.delete(p));
    this.#running.add(p);
  }

  /** Waits for every upload; throws the first failure. */
  async wait(): Promise<void> {
    await Promise.allSettled([...this.#running]);
    if (this.#failure) throw this.#failure.error;
  }
}

/** What one encoded file needs. */
export interface EncodedFile {
  readonly up: Uploader;
  readonly repo: string;
  readonly title: string;
  readonly size: number;
  readonly body: EntryBody;
  readonly level: number;
  readonly compress: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly progress: (line: string) => void;
}

/** Reads the next `want` bytes of `body` into one buffer (from `buffers` when given); fewer fail with Go's `unexpected EOF`. */
async function readChunk(body: EntryBody, want: number, buffers?: ChunkBuffers): Promise<Uint8Array> {
  const out = buffers?.take(want) ?? Buffer.allocUnsafe(want);
  try {
    await body.readInto(out);
  } catch (err) {
    buffers?.give(out);
    throw err;
  }
  return out;
}

/**
 * The output buffer for a file's next frame: the last frame's size with a quarter and 1 MiB to
 * spare, rounded up to whole MiB (so freed buffers fit the next ones), the bound before any frame.
 * Chunks of one file compress alike; a frame that outgrows the guess is joined from two buffers.
 */
class FrameSizeGuess {
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

/** Go's `enqueueChunks`: cuts a file at fixed offsets and uploads each chunk (one zstd frame each) on the pool. */
export async function enqueueChunks(f: EncodedFile, chunkSize: number, pool: UploadPool): Promise<Descriptor[]> {
  const count = Math.ceil(f.size / chunkSize);
  if (count > MAX_CHUNKS) throw new CocoonError("ERR_INVALID_ARGUMENT", `${f.title}: ${count} chunks exceeds sanity cap`);
  const base = mediaTypeForCocoonFile(f.title);
  const mediaType = f.compress ? zstdMediaType(base) : base;
  const descs: Descriptor[] = new Array<Descriptor>(count);
  const buffers = new ChunkBuffers(chunkSize);
  const guess = new FrameSizeGuess();
  for (let i = 0; i < count && !pool.failed; i++) {
    f.signal?.throwIfAborted();
    let raw: Uint8Array;
    try {
      raw = await readChunk(f.body, Math.min(chunkSize, f.size - i * chunkSize), buffers);
    } catch (err) {
      throw new CocoonError("ERR_SNAPSHOT_FORMAT", `read ${f.title} chunk ${i}: ${messageOf(err)}`, { cause: err });
    }
    await pool.start(async () => {
      try {
        const stored = f.compress ? await compressFrame(raw, f.level, guess.next()).finally(() => buffers.give(raw)) : raw;
        if (f.compress) guess.saw(stored.length);
        const desc = await uploadLayer(f.up, f.repo, f.title, mediaType, [stored], { index: i, count }, f.signal);
        descs[i] = desc;
        f.progress(`  ${f.title} [${i + 1}/${count}] -> ${desc.digest} (${desc.size} bytes)`);
      } catch (err) {
        if (f.signal?.aborted) throw f.signal.reason;
        const code = isCocoonError(err) ? err.code : "ERR_SNAPSHOT_TRANSFER";
        throw new CocoonError(code, `upload ${f.title} chunk ${i}: ${messageOf(err)}`, { cause: err });
      } finally {
        if (!f.compress) buffers.give(raw);
      }
    });
  }
  return descs;
}

/** The frames of an unchunked file (one-shot frames of {@link STREAM_FRAME} input bytes each), `width` compressing at once, in order. */
async function* compressedFrames(f: EncodedFile, width: number): AsyncGenerator<Uint8Array> {
  const queue: Promise<Uint8Array>[] = [];
  let at = 0;
  try {
    while (at < f.size || queue.length > 0) {
      while (queue.length < width && at < f.size) {
        f.signal?.throwIfAborted();
        let raw: Uint8Array;
        try {
          raw = await readChunk(f.body, Math.min(STREAM_FRAME, f.size - at));
        } catch (err) {
          throw new CocoonError("ERR_SNAPSHOT_FORMAT", `compress entry: ${messageOf(err)}`, { cause: err });
        }
        at += raw.length;
        const frame = compressFrame(raw, f.level);
        frame.catch(() => undefined); // awaited in order below
        queue.push(frame);
      }
      yield await (queue.shift() as Promise<Uint8Array>);
    }
  } finally {
    await Promise.allSettled(queue);
  }
}

/**
 * Compresses an unchunked file as consecutive one-shot frames (each with its content size) and
 * uploads it: streamed when the uploader can, else held in memory to learn its digest first.
 */
export async function uploadCompressed(f: EncodedFile, width: number): Promise<Descriptor> {
  const mediaType = zstdMediaType(mediaTypeForCocoonFile(f.title));
  const put = f.size > STREAM_ABOVE ? f.up.putBlobStreamed?.bind(f.up) : undefined;
  if (put !== undefined) return uploadStreamed(put, f.repo, f.title, mediaType, compressedFrames(f, width), f.signal);
  const frames: Uint8Array[] = [];
  for await (const frame of compressedFrames(f, width)) frames.push(frame);
  return uploadLayer(f.up, f.repo, f.title, mediaType, frames, undefined, f.signal);
}

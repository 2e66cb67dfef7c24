import { CocoonError, isCocoonError } from "../errors.js";
import type { Descriptor } from "../oci/manifest-types.js";
import { mediaTypeForCocoonFile, zstdMediaType } from "../oci/media-types.js";
import type { Uploader } from "../oci/registry.js";
import { messageOf } from "./blob-reader.js";
import { STREAM_ABOVE, uploadLayer, uploadStreamed } from "./blob-upload.js";
import { ChunkBuffers } from "./chunk-buffers.js";
import { compressFrame } from "./zstd.js";
import { readPiece, type ReadCarry } from "../oci/internal/read-piece.js";

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
  readonly body: AsyncIterator<Uint8Array>;
  readonly level: number;
  readonly compress: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly progress: (line: string) => void;
}

/**
 * Reads exactly `want` bytes into `out`, copying each piece as it arrives: the piece is still in
 * the CPU's cache then, where copying a whole chunk's pieces at the end reads them back from memory.
 */
async function readInto(body: AsyncIterator<Uint8Array>, out: Uint8Array, carry: ReadCarry): Promise<void> {
  let at = 0;
  while (at < out.length) {
    let part = carry.rest;
    carry.rest = undefined;
    if (part === undefined) {
      const next = await body.next();
      if (next.done === true) throw new Error("unexpected EOF");
      part = next.value;
    }
    const take = Math.min(part.length, out.length - at);
    out.set(take === part.length ? part : part.subarray(0, take), at);
    if (take < part.length) carry.rest = part.subarray(take);
    at += take;
  }
}

/** Reads exactly `want` bytes into one buffer (from `buffers` when given); fewer fail with Go's `unexpected EOF`. */
async function readChunk(body: AsyncIterator<Uint8Array>, want: number, carry: ReadCarry, buffers?: ChunkBuffers): Promise<Uint8Array> {
  if (buffers !== undefined) {
    const out = buffers.take(want);
    try {
      await readInto(body, out, carry);
    } catch (err) {
      buffers.give(out);
      throw err;
    }
    return out;
  }
  const parts = await readPiece(body, want, carry);
  const length = parts.reduce((n, p) => n + p.length, 0);
  if (length < want) throw new Error("unexpected EOF");
  return Buffer.concat(parts, length);
}

/** Go's `enqueueChunks`: cuts a file at fixed offsets and uploads each chunk (one zstd frame each) on the pool. */
export async function enqueueChunks(f: EncodedFile, chunkSize: number, pool: UploadPool): Promise<Descriptor[]> {
  const count = Math.ceil(f.size / chunkSize);
  if (count > MAX_CHUNKS) throw new CocoonError("ERR_INVALID_ARGUMENT", `${f.title}: ${count} chunks exceeds sanity cap`);
  const base = mediaTypeForCocoonFile(f.title);
  const mediaType = f.compress ? zstdMediaType(base) : base;
  const descs: Descriptor[] = new Array<Descriptor>(count);
  const carry: ReadCarry = {};
  const buffers = new ChunkBuffers(chunkSize);
  for (let i = 0; i < count && !pool.failed; i++) {
    f.signal?.throwIfAborted();
    let raw: Uint8Array;
    try {
      raw = await readChunk(f.body, Math.min(chunkSize, f.size - i * chunkSize), carry, buffers);
    } catch (err) {
      throw new CocoonError("ERR_SNAPSHOT_FORMAT", `read ${f.title} chunk ${i}: ${messageOf(err)}`, { cause: err });
    }
    await pool.start(async () => {
      try {
        const stored = f.compress ? await compressFrame(raw, f.level).finally(() => buffers.give(raw)) : raw;
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
  const carry: ReadCarry = {};
  const queue: Promise<Uint8Array>[] = [];
  let at = 0;
  try {
    while (at < f.size || queue.length > 0) {
      while (queue.length < width && at < f.size) {
        f.signal?.throwIfAborted();
        let raw: Uint8Array;
        try {
          raw = await readChunk(f.body, Math.min(STREAM_FRAME, f.size - at), carry);
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

import { CocoonError, isCocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { mediaTypeForCocoonFile, zstdMediaType } from "../../oci/media-types.js";
import type { Uploader } from "../../oci/registry.js";
import { MAX_FILE_CHUNKS } from "../artifact-checks.js";
import { compressFrame, compressRead, FRAME_PIECE } from "../codec/zstd-encode.js";
import type { EntryBody } from "../io/byte-reader.js";
import { unexpectedEOF } from "../io/stream-refusal.js";
import { ChunkBuffers, readChunk } from "../io/chunk-buffers.js";
import { FrameSizeGuess } from "../io/frame-size-guess.js";
import type { ReadAt } from "../io/piece-source.js";
import type { UploadPool } from "../io/upload-pool.js";
import { uploadLayer } from "./blob-upload.js";

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

/**
 * Go's `enqueueChunks`: cuts a file at fixed offsets and uploads each chunk (one zstd frame each)
 * on the pool. From an export file, a compressed chunk is read piece by piece while it compresses
 * (positional reads into two {@link FRAME_PIECE} buffers) and hands its slot over once its frame
 * is written; otherwise it is read into a reused chunk buffer first. The first way is the faster
 * (`BENCHMARKS.md`, "Snapshot internals") and holds no chunk-sized buffer.
 */
export async function enqueueChunks(f: EncodedFile, chunkSize: number, pool: UploadPool): Promise<Descriptor[]> {
  const count = Math.ceil(f.size / chunkSize);
  if (count > MAX_FILE_CHUNKS) throw new CocoonError("ERR_INVALID_ARGUMENT", `${f.title}: ${count} chunks exceeds sanity cap`);
  const base = mediaTypeForCocoonFile(f.title);
  const mediaType = f.compress ? zstdMediaType(base) : base;
  const descs: Descriptor[] = new Array<Descriptor>(count);
  const buffers = new ChunkBuffers(chunkSize);
  const pieces = new ChunkBuffers(FRAME_PIECE);
  const guess = new FrameSizeGuess();
  // Settles once a chunk's task is over, with the read error of that chunk or of an earlier one:
  // chunks read side by side, and a read that fails reports the earliest failed read, as Go's
  // one-after-another reads would.
  let earlierReads: Promise<CocoonError | undefined> = Promise.resolve(undefined);
  for (let i = 0; i < count && !pool.failed; i++) {
    f.signal?.throwIfAborted();
    const want = Math.min(chunkSize, f.size - i * chunkSize);
    const readFailure = (err: unknown): CocoonError =>
      new CocoonError("ERR_SNAPSHOT_FORMAT", `read ${f.title} chunk ${i}: ${messageOf(err)}`, { cause: err });
    const region = f.compress ? f.body.region(want) : undefined;
    let raw: Uint8Array | undefined;
    if (region === undefined) {
      try {
        raw = await readChunk(f.body, want, buffers);
      } catch (err) {
        throw readFailure(err);
      }
    }
    let readError: CocoonError | undefined;
    const beforeThis = earlierReads;
    let readsDone: (error: CocoonError | Promise<CocoonError | undefined> | undefined) => void = () => undefined;
    earlierReads = new Promise((resolve) => (readsDone = resolve));
    const readAt: ReadAt = async (out, offset) => {
      let n: number;
      try {
        n = await (region as ReadAt)(out, offset);
        if (n < out.length) throw unexpectedEOF();
      } catch (err) {
        readError = (await beforeThis) ?? readFailure(err);
        throw readError;
      }
      return n;
    };
    await pool.start(async (handOver) => {
      try {
        let stored: Uint8Array;
        if (raw === undefined) {
          const two = [pieces.take(FRAME_PIECE), pieces.take(FRAME_PIECE)] as const;
          stored = await compressRead(readAt, want, f.level, guess.next(), two).finally(() => two.forEach((p) => pieces.give(p)));
          await handOver(); // only the frame is held from here: the next chunk may compress while it uploads
        } else {
          stored = f.compress ? await compressFrame(raw, f.level, guess.next()).finally(() => buffers.give(raw)) : raw;
        }
        if (f.compress) guess.saw(stored.length);
        const desc = await uploadLayer(f.up, f.repo, f.title, mediaType, [stored], { index: i, count }, f.signal);
        descs[i] = desc;
        f.progress(`  ${f.title} [${i + 1}/${count}] -> ${desc.digest} (${desc.size} bytes)`);
      } catch (err) {
        if (f.signal?.aborted) throw f.signal.reason;
        if (err === readError) throw err;
        const code = isCocoonError(err) ? err.code : "ERR_SNAPSHOT_TRANSFER";
        throw new CocoonError(code, `upload ${f.title} chunk ${i}: ${messageOf(err)}`, { cause: err });
      } finally {
        if (!f.compress && raw !== undefined) buffers.give(raw);
        readsDone(readError ?? beforeThis);
      }
    });
  }
  return descs;
}

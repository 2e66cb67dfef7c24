import { CocoonError, isCocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import type { Downloader } from "../../oci/registry.js";
import type { TarWriter } from "../codec/tar-writer.js";
import { decodeChunkPieces } from "../codec/zstd-decode.js";
import { decodeStream } from "../codec/zstd-stream.js";
import { ChunkBuffers } from "../io/chunk-buffers.js";
import { readVerifiedBlob, verifiedBlobs } from "./blob-reader.js";
import type { EncodedFile } from "./import-entries.js";
import type { PrefetchWindow } from "./prefetch-window.js";
import type { StreamOptions } from "./stream-options.js";

/** What writing an encoded file needs from the pull: where its chunks come from, the options, and the tar. */
export interface EncodedPull {
  readonly dl: Downloader;
  readonly opts: StreamOptions;
  readonly tw: TarWriter;
}

/**
 * Writes an encoded file's bytes, its header written already: its chunks decoded (or fetched) in
 * order, `window` of them ahead when it allows, and checked against the file's size.
 */
export async function writeEncodedFile(pull: EncodedPull, file: EncodedFile, window: PrefetchWindow): Promise<void> {
  const body =
    window.window >= 2 && file.chunks.length >= 2
      ? windowed(pull, file, Math.min(window.depth, file.chunks.length), window.cap)
      : sequential(pull, file);
  let written = 0;
  try {
    for await (const run of body) {
      for (const data of run.pieces) {
        written += data.length;
        await pull.tw.write(data);
      }
      run.release(pull.tw);
    }
  } catch (err) {
    if (pull.opts.signal?.aborted) throw err;
    const code = isCocoonError(err) ? err.code : "ERR_SNAPSHOT_INTEGRITY";
    throw new CocoonError(code, `stream ${file.title}: ${messageOf(err)}`, { cause: err });
  }
  if (written !== file.size) {
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `${file.title} reconstructed to ${written} bytes, want ${file.size}`);
  }
}

/** One chunk's bytes as decoded (or fetched), and what becomes of them once written. */
interface Run {
  readonly pieces: readonly Uint8Array[];
  /** Frees or reuses the pieces once `tw`'s output has taken them, when only the pull holds them. */
  release(tw: TarWriter): void;
}

const KEEP = (): void => undefined;

/** The chunks of `file`, `window` of them fetched and decoded ahead, in order. */
async function* windowed(pull: EncodedPull, file: EncodedFile, window: number, cap: number): AsyncGenerator<Run> {
  const queue: Promise<Run>[] = [];
  // Compressed and decoded chunks land in reused buffers: a fresh one per chunk costs its page
  // faults each time, and a collection every few chunks.
  const buffers = new ChunkBuffers(file.largest);
  const decoded = new ChunkBuffers(cap + 1);
  let next = 0;
  const fill = (): void => {
    while (queue.length < window && next < file.chunks.length) {
      const p = fetchChunk(pull, file, file.chunks[next++] as Descriptor, cap, { buffers, decoded });
      p.catch(() => undefined);
      queue.push(p);
    }
  };
  try {
    fill();
    while (queue.length > 0) {
      const run = await (queue.shift() as Promise<Run>);
      fill();
      yield run;
    }
  } finally {
    await Promise.allSettled(queue);
    buffers.close();
    decoded.close();
  }
}

/** The reused buffers of a windowed pull: compressed chunks as fetched, and chunks decoded into buffers of the pull's own. */
interface WindowBuffers {
  readonly buffers: ChunkBuffers;
  readonly decoded: ChunkBuffers;
}

/**
 * Fetches and decodes one chunk: a zstd chunk is read into a buffer of `buffers`, given back once
 * decoded, and decoded into one of `decoded` (given back once written) when its frames allow.
 */
async function fetchChunk(
  pull: EncodedPull,
  file: EncodedFile,
  desc: Descriptor,
  cap: number,
  { buffers, decoded }: WindowBuffers,
): Promise<Run> {
  const stored = file.zstd ? buffers.take(desc.size) : undefined;
  let into: Uint8Array | undefined;
  let intoUsed = false;
  try {
    const fetched = await readVerifiedBlob(pull.dl, pull.opts.name, desc, pull.opts.signal, stored);
    if (stored === undefined) return owned([fetched]);
    // Taken once the chunk has arrived, not when its fetch starts: by then the output has often
    // taken an earlier chunk, whose buffer this one reuses instead of faulting in a fresh one.
    const out = (into = decoded.take(cap + 1));
    const pieces = await decodeChunkPieces(stored, cap, out);
    intoUsed = pieces.length === 1 && pieces[0]?.buffer === out.buffer;
    return intoUsed ? { pieces, release: (tw) => tw.onTaken(() => decoded.give(out)) } : owned(pieces);
  } catch (err) {
    // A raw chunk's failure is the fetch's own; only a decode is this function's to name.
    if (stored === undefined || isCocoonError(err) || pull.opts.signal?.aborted) throw err;
    throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `decode chunk ${desc.digest}: ${messageOf(err)}`, { cause: err });
  } finally {
    if (stored !== undefined) buffers.give(stored);
    if (into !== undefined && !intoUsed) decoded.give(into);
  }
}

/** A run whose pieces only the pull holds: freed once written. */
function owned(pieces: Uint8Array[]): Run {
  return { pieces, release: (tw) => tw.release(pieces) };
}

/** The chunks of `file` one after the other, decoded as they stream in when they are zstd frames. */
async function* sequential(pull: EncodedPull, file: EncodedFile): AsyncGenerator<Run> {
  const stored = verifiedBlobs(pull.dl, pull.opts.name, file.chunks, pull.opts.signal);
  for await (const piece of file.zstd ? decodeStream(stored) : stored) {
    yield { pieces: [piece], release: KEEP };
  }
}

/**
 * Node's own zstd work of a v2 push and pull, with no registry and no HTTP: what the library's
 * codec path reaches on this machine by itself, beside the floor's CLI tools (`bench/snapshot-run.ts`
 * ops `push-local` and `pull-local`). Both use the library's functions and limits: 64 MiB chunks,
 * two compressing at once (a 512 MiB budget's `chunksInFlight`), three decoding ahead
 * (`prefetchDepth`), 4 MiB decoded pieces written through the pull's tar writer to `/dev/null`.
 */
import { createWriteStream } from "node:fs";
import { ByteReader } from "../src/snapshot/byte-reader.js";
import { ChunkBuffers } from "../src/snapshot/chunk-buffers.js";
import { digestOffThread } from "../src/snapshot/blob-upload.js";
import { readExportFile } from "../src/snapshot/export-file.js";
import { TarWriter } from "../src/snapshot/tar-writer.js";
import { chunksInFlight, prefetchDepth } from "../src/snapshot/memory-budget.js";
import { compressFrame, decodeChunkPieces } from "../src/snapshot/zstd.js";

const CHUNK = 64 << 20;
const BUDGET = 512 << 20;

/** Reads the export in chunks straight into reused buffers, compresses and hashes each, two at once; returns the frames' bytes. */
export async function pushLocal(tar: string, size: number, level: number): Promise<number> {
  const reader = new ByteReader(readExportFile(tar));
  const buffers = new ChunkBuffers(CHUNK);
  const running = new Set<Promise<void>>();
  let stored = 0;
  try {
    for (let at = 0; at < size; at += CHUNK) {
      const raw = buffers.take(Math.min(CHUNK, size - at));
      await reader.readInto(raw);
      while (running.size >= chunksInFlight(2, CHUNK, BUDGET)) await Promise.race(running);
      const task: Promise<void> = compressFrame(raw, level)
        .then(async (frame) => {
          buffers.give(raw);
          await digestOffThread(frame);
          stored += frame.length;
        })
        .finally(() => running.delete(task));
      running.add(task);
    }
    await Promise.all(running);
  } finally {
    await reader.close();
    buffers.close();
  }
  return stored;
}

/** The export cut in chunks and compressed, untimed: the input of {@link pullLocal}. */
export async function framesOfExport(tar: string, size: number, level: number): Promise<Uint8Array[]> {
  const reader = new ByteReader(readExportFile(tar));
  const frames: Uint8Array[] = [];
  try {
    for (let at = 0; at < size; at += CHUNK) {
      const raw = new Uint8Array(Math.min(CHUNK, size - at));
      await reader.readInto(raw);
      frames.push(await compressFrame(raw, level));
    }
  } finally {
    await reader.close();
  }
  return frames;
}

/**
 * Decodes the frames in 4 MiB pieces, `prefetchDepth` chunks ahead, into one tar entry written to
 * `/dev/null` as the pull writes it (each chunk freed once written); returns the entry's bytes.
 */
export async function pullLocal(frames: readonly Uint8Array[]): Promise<number> {
  const sink = createWriteStream("/dev/null");
  const tw = new TarWriter(sink);
  let bytes = 0;
  const depth = prefetchDepth(8, Math.max(...frames.map((f) => f.length)), CHUNK, BUDGET);
  const queue: Promise<Uint8Array[]>[] = [];
  let next = 0;
  const fill = (): void => {
    while (queue.length < depth && next < frames.length) queue.push(decodeChunkPieces(frames[next++] as Uint8Array, CHUNK));
  };
  const size = frames.length * CHUNK; // the header's size: a multiple of the chunk, so the tar is never cut short
  await tw.writeHeader({ name: "memory-ranges", size, mode: 0o600, mtime: 0 });
  fill();
  while (queue.length > 0) {
    const pieces = await (queue.shift() as Promise<Uint8Array[]>);
    fill();
    for (const piece of pieces) {
      bytes += piece.length;
      await tw.write(piece);
    }
    tw.release(pieces);
  }
  await new Promise<void>((resolve) => sink.end(resolve));
  return bytes;
}

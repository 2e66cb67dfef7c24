import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import type { Descriptor } from "../../oci/manifest-types.js";
import { mediaTypeForCocoonFile, zstdMediaType } from "../../oci/media-types.js";
import { compressFrame } from "../codec/zstd-encode.js";
import { readChunk } from "../io/chunk-buffers.js";
import { STREAM_ABOVE, uploadLayer, uploadStreamed } from "./blob-upload.js";
import type { EncodedFile } from "./chunked-upload.js";

/** Frames of a single-layer (unchunked) zstd file: one-shot frames of this many input bytes. */
const STREAM_FRAME = 4 << 20;

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

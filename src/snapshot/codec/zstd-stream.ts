import { pipeline, Readable } from "node:stream";
import { unexpectedEOF } from "../io/stream-refusal.js";
import { nodeZstd } from "./node-zstd.js";
import { goZstdError, MagicError, ZstdMessage } from "./zstd-errors.js";
import { FRAME_END, FrameSplitter } from "./zstd-frames.js";

/** Output buffers of streamed decoding; large ones save zlib round trips. */
export const OUTPUT_CHUNK = 1 << 20;

/** The bytes of `source`, with a {@link FRAME_END} after each frame; a stream that stops inside a frame fails. */
async function* splitFrames(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array | typeof FRAME_END> {
  const splitter = new FrameSplitter();
  try {
    for await (const chunk of source) yield* splitter.split(chunk);
  } catch (err) {
    throw err instanceof MagicError ? new Error(ZstdMessage.Magic) : err;
  }
  if (!splitter.atBoundary) throw unexpectedEOF();
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
        throw goZstdError(err);
      }
      if (input.done) return;
    }
  } finally {
    await events.return(undefined);
  }
}

import { Readable } from "node:stream";

/**
 * A `Readable` of `source` that a `for await` loop, when it is the stream's first reader, reads
 * straight from `source`: each piece arrives as it was made, never merged with the next (which a
 * stream's own iterator does with what it holds), and with no stream machinery per piece. Any other
 * use (`pipe`, `on("data")`, `read()`) reads it as `Readable.from` does. The direct loop destroys
 * the stream when it ends, as the stream's own iterator does.
 */
export function directReadable(source: AsyncGenerator<Uint8Array, void, undefined>): Readable {
  const stream = Readable.from(source, { objectMode: false });
  // Any read (even read(0), or one that found nothing yet) makes the stream pull from `source`.
  let pulled = false;
  const pull = stream._read.bind(stream);
  stream._read = (size) => {
    pulled = true;
    pull(size);
  };
  const streamed = stream[Symbol.asyncIterator].bind(stream);
  stream[Symbol.asyncIterator] = () => {
    if (pulled || stream.readableFlowing !== null || stream.destroyed) return streamed();
    return direct(stream, source);
  };
  return stream;
}

async function* direct(stream: Readable, source: AsyncGenerator<Uint8Array, void, undefined>): AsyncGenerator<Uint8Array, void, undefined> {
  stream.pause(); // marks the stream as being read, so a second reader takes the stream's path
  try {
    yield* source;
  } finally {
    stream.destroy();
  }
}

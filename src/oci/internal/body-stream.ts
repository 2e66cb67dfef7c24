/**
 * A stream body for `fetch` that hands each chunk of `source` over as it is. Given the async
 * iterable itself, fetch turns it into a byte stream that copies every chunk; a default
 * `ReadableStream` is written without a copy ([BENCHMARKS.md](https://github.com/cocoonstack/cocoon-common-ts/blob/main/BENCHMARKS.md), "Measured once"). Pulled on demand,
 * so nothing is read ahead of the socket.
 */
export function streamBody(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel(reason: unknown) {
        await it.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
  sources.set(stream, it);
  return stream;
}

/** Each {@link streamBody} stream's source, until a writer takes it. */
const sources = new WeakMap<ReadableStream<Uint8Array>, AsyncIterator<Uint8Array>>();

/**
 * The source of a {@link streamBody} stream not yet read, taken once: the package's own socket
 * client pulls each piece from it straight, skipping the web stream's reads (a promise, a read
 * request and a pull per piece: garbage that grew V8's young generation on a push). Any other
 * stream, or one already locked, gives `undefined` and is read as a stream.
 */
export function takeStreamSource(stream: ReadableStream<Uint8Array>): AsyncIterator<Uint8Array> | undefined {
  const it = sources.get(stream);
  if (it === undefined || stream.locked) return undefined;
  sources.delete(stream);
  return it;
}

/**
 * A stream body for `fetch` that hands each chunk of `source` over as it is. Given the async
 * iterable itself, fetch turns it into a byte stream that copies every chunk; a default
 * `ReadableStream` is written without a copy ([BENCHMARKS.md](https://github.com/cocoonstack/cocoon-common-ts/blob/main/BENCHMARKS.md), "Measured once"). Pulled on demand,
 * so nothing is read ahead of the socket.
 */
export function streamBody(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  return new (sourceStreamClass())(source[Symbol.asyncIterator]());
}

/** A {@link streamBody} stream: it carries its source, for a writer that takes it whole. */
interface SourceStream extends ReadableStream<Uint8Array> {
  /** The source, once, while nothing has read the stream. */
  take(): AsyncIterator<Uint8Array> | undefined;
}

/** The class of {@link SourceStream}s, once one was made. */
let defined: (new (it: AsyncIterator<Uint8Array>) => SourceStream) | undefined;

/**
 * Defined on the first stream body, not when the module loads: extending `ReadableStream` loads
 * Node's web streams, which a process that only pulls never uses.
 */
function sourceStreamClass(): new (it: AsyncIterator<Uint8Array>) => SourceStream {
  defined ??= class extends ReadableStream<Uint8Array> implements SourceStream {
    #source: AsyncIterator<Uint8Array> | undefined;

    constructor(it: AsyncIterator<Uint8Array>) {
      super(
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
      this.#source = it;
    }

    take(): AsyncIterator<Uint8Array> | undefined {
      const it = this.#source;
      if (this.locked) return undefined;
      this.#source = undefined;
      return it;
    }
  };
  return defined;
}

/**
 * The source of a {@link streamBody} stream not yet read, taken once: the package's own socket
 * client pulls each piece from it straight, skipping the web stream's reads (a promise, a read
 * request and a pull per piece: garbage that grew V8's young generation on a push). Any other
 * stream, or one already locked, gives `undefined` and is read as a stream.
 */
export function takeStreamSource(stream: ReadableStream<Uint8Array>): AsyncIterator<Uint8Array> | undefined {
  return defined !== undefined && stream instanceof defined ? stream.take() : undefined;
}

/**
 * A stream body for `fetch` that hands each chunk of `source` over as it is. Given the async
 * iterable itself, fetch turns it into a byte stream that copies every chunk; a default
 * `ReadableStream` is written without a copy ([BENCHMARKS.md](https://github.com/cocoonstack/cocoon-common-ts/blob/main/BENCHMARKS.md), "Measured once"). Pulled on demand,
 * so nothing is read ahead of the socket.
 */
export function streamBody(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
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
}

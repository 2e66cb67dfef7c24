/**
 * `source`'s pieces as they come, and what `onError` makes of a failed read thrown in its place.
 * A plain iterator, not an async generator: each generator layer between an export file and the
 * socket made a request, a promise and a result object per piece, garbage that grew V8's young
 * generation on a v1 push (`BENCHMARKS.md`, "Snapshot internals").
 */
export function catching<T>(source: AsyncIterable<T>, onError: (err: unknown) => unknown): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  const fail = (err: unknown): never => {
    throw onError(err);
  };
  return {
    next: () => it.next().catch(fail),
    return: async (value?: unknown) => (await it.return?.(value)) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

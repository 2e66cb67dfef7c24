/**
 * Settles as `pending` does, or rejects with `signal`'s reason as soon as it aborts, whichever
 * comes first; `pending` is still observed after an abort, so its later rejection is never unhandled.
 *
 * @example
 * ```ts
 * const next = await untilAborted(source.next(), signal); // a stalled source ends with the signal's reason
 * ```
 */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  if (signal.aborted) {
    pending.catch(() => undefined);
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

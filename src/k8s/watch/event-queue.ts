/**
 * The events a watch has delivered and its consumer has not taken yet, as an async iterator's
 * `next()`. Unbounded: a watch cannot slow the API server down, so a consumer that falls behind
 * holds the backlog here.
 *
 * @internal
 */
export class EventQueue<E> {
  #items: (E | Promise<E>)[] = [];
  #head = 0;
  #waiting: { resolve: (result: IteratorResult<E, undefined>) => void; reject: (error: unknown) => void } | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;

  /** Hands `item` to the waiting `next()`, or keeps it for the next one; ignored once ended. A promise is delivered once it resolves, in its turn. */
  push(item: E | Promise<E>): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      if (item instanceof Promise) item.then((value) => waiting.resolve({ done: false, value }), waiting.reject);
      else waiting.resolve({ done: false, value: item });
      return;
    }
    this.#items.push(item);
  }

  /** Ends the iteration now: what is kept is dropped, and `next()` resolves done from here on. */
  end(): void {
    this.#finish();
    this.#waiting?.resolve({ done: true, value: undefined });
    this.#waiting = undefined;
  }

  /** Ends the iteration with `error`: the next `next()` rejects with it, later ones resolve done. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#finish();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) this.#failure = { error };
    else waiting.reject(error);
  }

  /** The next item, waiting for one when none is kept. */
  next(): Promise<IteratorResult<E, undefined>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as E | Promise<E>;
      this.#head++;
      if (this.#head === this.#items.length) {
        this.#items = [];
        this.#head = 0;
      } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      return value instanceof Promise ? value.then((v) => ({ done: false, value: v })) : Promise.resolve({ done: false, value });
    }
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      return Promise.reject(failure.error);
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiting !== undefined) return Promise.reject(new Error("EventQueue: next() called again before the previous one settled"));
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  #finish(): void {
    this.#ended = true;
    this.#items = [];
    this.#head = 0;
  }
}

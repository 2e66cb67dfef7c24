import type { BodySlabs } from "../../../internal/body-slabs.js";

/**
 * Bytes a body holds for its reader before it stops reading the socket: two slabs, so the reader
 * finds a whole slab waiting while the next one fills. At one slab the socket paused and resumed
 * far more often and the reader got smaller pieces: a slower pull (`BENCHMARKS.md`, "What bare means").
 */
export const QUEUE_LIMIT = 2 << 20;

/** What a read gives, as a `ReadableStreamDefaultReader`'s read does. */
export type BodyRead = { readonly done: false; readonly value: Uint8Array } | { readonly done: true; readonly value: undefined };

/** Size of the slabs that received bytes are copied into. */
const SLAB = 1 << 20;

/**
 * A response body on its way from a socket to its reader. Each socket read is copied once, into a
 * slab of 1 MiB shared by consecutive reads, and queued as a view of it; a read that follows one
 * still queued in the same slab extends it, so a reader that keeps up gets the bytes as they come
 * and one that lags gets them in large pieces. Past {@link QUEUE_LIMIT} queued bytes the socket is
 * paused until the reader catches up.
 */
export class BodyQueue {
  readonly #queue: Uint8Array[] = [];
  #queued = 0;
  #slab: Uint8Array = new Uint8Array(0);
  #slabAt = 0;
  /** The body's length when its head gave it and it is below a slab: it is received into a buffer of that size. */
  #small: number | undefined;
  /** Whether the current slab is the pool's (given back once read), or a small body's own buffer. */
  #pooled = true;
  #ended = false;
  #error: Error | undefined = undefined;
  #waiter: { resolve: (r: BodyRead) => void; reject: (err: Error) => void } | undefined;
  readonly #resume: () => void;
  readonly #cancel: () => void;
  #paused = false;
  /** Whether a reader has asked for bytes: from then on the body's memory stays as it is. */
  #reading = false;
  /** The memory the last {@link room} gave out for the next read. */
  #room: Uint8Array | undefined;
  /** The slab that memory is in (and whether it is the pool's), when the body has moved to the caller's buffer since ({@link receiveInto}). */
  #moved: { readonly slab: Uint8Array; readonly pooled: boolean } | undefined;

  readonly #maxPush: number;
  /** The slabs this body is received into; its reader may give them back through it. */
  readonly slabs: BodySlabs;

  /**
   * @param maxPush - The most bytes one {@link push} brings (the socket's read buffer).
   * @param socket - Resumes a paused source, and (on cancel) closes it.
   * @param slabs - This body's slabs, from its client's pool.
   */
  constructor(maxPush: number, socket: { resume: () => void; cancel: () => void }, slabs: BodySlabs) {
    this.#maxPush = maxPush;
    this.slabs = slabs;
    this.#resume = socket.resume;
    this.#cancel = socket.cancel;
  }

  /**
   * Tells the queue the body's length, from its head: a body below a slab (a manifest, a token, a
   * config blob) is received into one buffer of its size instead of a pool slab, which its reader
   * (copying it whole) never gives back.
   */
  expect(length: number): void {
    if (length < SLAB && this.#slab.length === 0) this.#small = length;
  }

  /**
   * Receives the body into `dest`, a buffer of the caller's: the bytes queued so far are copied to
   * its start and every later read lands after them, so each piece handed out from then on is a
   * view of `dest` where its bytes belong, until `dest` is full (bytes past it, which a longer body
   * brings, go to slabs as before). The read whose memory was already given out ({@link room}) is
   * copied over once it lands; then the slab it came from goes back to the pool. Only before the
   * first read, and only while what is queued fits; returns whether it took effect.
   */
  receiveInto(dest: Uint8Array): boolean {
    if (this.#reading || this.#ended || this.#error !== undefined || this.#queued > dest.length) return false;
    let at = 0;
    for (const piece of this.#queue) {
      dest.set(piece, at);
      at += piece.length;
    }
    this.#queue.length = 0;
    if (at > 0) this.#queue.push(dest.subarray(0, at));
    const old = { slab: this.#slab, pooled: this.#pooled && this.#slab.length > 0 };
    this.#slab = dest;
    this.#slabAt = at;
    this.#pooled = false;
    this.#small = undefined;
    // Node chose the next read's memory when the last read landed: the old slab (or a small
    // body's own buffer) stays until that read is in.
    if (this.#room !== undefined && this.#room.buffer === old.slab.buffer) this.#moved = old;
    else if (old.pooled) this.#giveBack(old.slab);
    return true;
  }

  /** Gives a whole pool slab back to the pool; its views read as empty from then on. */
  #giveBack(slab: Uint8Array): void {
    this.slabs.retire(slab, slab.length);
    this.slabs.free(slab);
  }

  /** Copies `buf[from..to)` in; returns false when the source should pause. */
  push(buf: Uint8Array, from: number, to: number): boolean {
    if (this.#ended || this.#error !== undefined || to <= from) return !this.#paused;
    this.#makeRoom(to - from);
    this.#slab.set(buf.subarray(from, to), this.#slabAt);
    return this.#take(to - from);
  }

  /**
   * Where the next socket read can land without a copy: the free end of the current slab, or of a
   * fresh one when less than a read buffer is left (for a small body, its own buffer). The bytes
   * a read puts at its start are taken with {@link commit}; anything else there is never handed out.
   */
  room(): Uint8Array {
    // A small body's own buffer is filled to its end; a pool slab keeps at least a read buffer free.
    if (this.#pooled || this.#slabAt === this.#slab.length) this.#makeRoom(Math.min(this.#maxPush, this.#small ?? this.#maxPush));
    return (this.#room = this.#slab.subarray(this.#slabAt));
  }

  /** Takes the first `n` bytes of the last {@link room} as received; returns false when the source should pause. */
  commit(n: number): boolean {
    const room = this.#room;
    this.#room = undefined;
    const moved = this.#moved;
    this.#moved = undefined;
    if (moved !== undefined && room?.buffer === moved.slab.buffer) {
      // The body moved to the caller's buffer after this read's memory was given out.
      const more = this.push(room, 0, n);
      if (moved.pooled) this.#giveBack(moved.slab);
      return more;
    }
    if (this.#ended || this.#error !== undefined || n <= 0) return !this.#paused;
    return this.#take(n);
  }

  /** Makes the current slab hold `n` more bytes: a fresh one (the pool's, or a small body's own) when it cannot. */
  #makeRoom(n: number): void {
    if (this.#slab.length - this.#slabAt >= n) return;
    const small = this.#small;
    this.#pooled = small === undefined || n > small;
    this.#slab = this.#pooled ? this.slabs.take(Math.max(SLAB, n)) : Buffer.allocUnsafeSlow(small ?? n);
    this.#small = undefined;
    this.#slabAt = 0;
  }

  /** Hands out or queues the `n` bytes just written at the slab's free end. */
  #take(n: number): boolean {
    const slab = this.#slab;
    const at = this.#slabAt;
    this.#slabAt += n;
    // Retired before its last piece is handed out, so the reader can tell that piece is the last.
    if (this.#pooled && slab.length - this.#slabAt < this.#maxPush) {
      this.slabs.retire(slab, this.#slabAt);
      this.#slab = new Uint8Array(0);
      this.#slabAt = 0;
    }
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter.resolve({ done: false, value: slab.subarray(at, at + n) });
      return true;
    }
    const last = this.#queue.at(-1);
    if (last?.buffer === slab.buffer && last.byteOffset + last.length === at) {
      this.#queue[this.#queue.length - 1] = new Uint8Array(last.buffer, last.byteOffset, last.length + n);
    } else {
      this.#queue.push(slab.subarray(at, at + n));
    }
    this.#queued += n;
    if (this.#queued >= QUEUE_LIMIT) {
      this.#paused = true;
      return false;
    }
    return true;
  }

  /** The body is complete. */
  end(): void {
    if (this.#ended || this.#error !== undefined) return;
    this.#ended = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  }

  /** The body failed: the next read rejects with `err` (bytes queued before it are dropped). */
  fail(err: Error): void {
    if (this.#ended || this.#error !== undefined) return;
    this.#error = err;
    this.#queue.length = 0;
    this.#queued = 0;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(err);
  }

  /** The next bytes, as a `ReadableStreamDefaultReader` gives them. */
  read(): Promise<BodyRead> {
    this.#reading = true;
    if (this.#error !== undefined) return Promise.reject(this.#error);
    const value = this.#queue.shift();
    if (value !== undefined) {
      this.#queued -= value.length;
      if (this.#paused && this.#queued < QUEUE_LIMIT) {
        this.#paused = false;
        this.#resume();
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiter !== undefined) return Promise.reject(new TypeError("body already being read"));
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** Stops reading: drops what is queued and closes the source; a pending read ends as done. */
  cancel(): Promise<void> {
    if (!this.#ended && this.#error === undefined) {
      this.#ended = true;
      this.#queue.length = 0;
      this.#queued = 0;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.resolve({ done: true, value: undefined });
    }
    this.#cancel();
    return Promise.resolve();
  }

  /** The body as a web stream, for readers that want one; it reads only when asked, never ahead. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const next = await this.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    );
  }
}

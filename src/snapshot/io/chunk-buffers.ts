import type { EntryBody } from "./byte-reader.js";

/** `ArrayBuffer.prototype.transfer` (ES2024, every supported Node), not yet in the project's `lib`. */
type Transferable = ArrayBuffer & { transfer(length?: number): ArrayBuffer };

/**
 * Detaches the memory under `view` when the view spans the whole of its `ArrayBuffer`, which frees
 * it now instead of at a later collection; views of it read as empty from then on. A view of part
 * of a buffer is left alone: the rest may belong to someone else (Node's pool hands out slices of
 * one 8 KiB buffer, and on Node 22 that buffer can be detached).
 */
export function detachWhole(view: Uint8Array): void {
  const { buffer } = view;
  if (!(buffer instanceof ArrayBuffer) || view.byteOffset !== 0 || view.byteLength !== buffer.byteLength || buffer.byteLength === 0) return;
  try {
    (buffer as Transferable).transfer(0);
  } catch {
    // not detachable: the collector frees it
  }
}

/**
 * How long the buffers of closed {@link ChunkBuffers} wait for a next set of their size (the next
 * file of a snapshot, the next pull or push of a process) before they are freed.
 */
export const SPARE_IDLE_MS = 1000;

/** Buffers of closed sets, by size, for the next set's {@link ChunkBuffers.take}; all freed once {@link SPARE_IDLE_MS} pass without one taken or added. */
const spares = new Map<number, Uint8Array[]>();
let spareTimer: ReturnType<typeof setTimeout> | undefined;

function keepSpare(buf: Uint8Array): void {
  const list = spares.get(buf.length);
  if (list === undefined) spares.set(buf.length, [buf]);
  else list.push(buf);
  if (spareTimer === undefined) spareTimer = setTimeout(freeSpareBuffers, SPARE_IDLE_MS).unref();
  else spareTimer.refresh();
}

function takeSpare(size: number): Uint8Array | undefined {
  const buf = spares.get(size)?.pop();
  if (buf !== undefined) spareTimer?.refresh();
  return buf;
}

/**
 * Frees every buffer that closed {@link ChunkBuffers} left for a next set, now instead of after
 * {@link SPARE_IDLE_MS}.
 *
 * @internal
 */
export function freeSpareBuffers(): void {
  clearTimeout(spareTimer);
  spareTimer = undefined;
  for (const list of spares.values()) for (const buf of list) detachWhole(buf);
  spares.clear();
}

/**
 * Reusable chunk-sized buffers (the raw chunks a push reads, the compressed chunks a pull fetches):
 * a fresh chunk-sized buffer per chunk costs its page faults again each time, and its external
 * memory brings on full collections (`BENCHMARKS.md`, "Snapshot internals"), so a buffer whose
 * chunk is done with comes back here for the next one. {@link close} hands the free ones to the
 * next set of the same size, for {@link SPARE_IDLE_MS}; after that they are freed at once instead
 * of at a later collection.
 */
export class ChunkBuffers {
  readonly #free: Uint8Array[] = [];
  readonly #size: number;
  #closed = false;

  /** @param size - Bytes per buffer. */
  constructor(size: number) {
    this.#size = size;
  }

  /** A buffer of `length` bytes (at most the chunk size), reused when one is free; its contents are stale. */
  take(length: number): Uint8Array {
    const buf = this.#free.pop() ?? takeSpare(this.#size) ?? Buffer.allocUnsafeSlow(this.#size);
    return buf.subarray(0, length);
  }

  /** Gives back a buffer from {@link take} once nothing reads it any more; after {@link close}, as {@link close} does. */
  give(buf: Uint8Array): void {
    const whole = new Uint8Array(buf.buffer, buf.byteOffset, this.#size);
    if (this.#closed) keepSpare(whole);
    else this.#free.push(whole);
  }

  /**
   * Leaves every buffer given back, and each one given back later, to the next set of the same size
   * for {@link SPARE_IDLE_MS}, then frees it; buffers never given back are left to the collector.
   */
  close(): void {
    this.#closed = true;
    for (const buf of this.#free.splice(0)) keepSpare(buf);
  }
}

/** Reads the next `want` bytes of `body` into one buffer (from `buffers` when given); fewer fail with Go's `unexpected EOF`. */
export async function readChunk(body: EntryBody, want: number, buffers?: ChunkBuffers): Promise<Uint8Array> {
  const out = buffers?.take(want) ?? Buffer.allocUnsafe(want);
  try {
    await body.readInto(out);
  } catch (err) {
    buffers?.give(out);
    throw err;
  }
  return out;
}

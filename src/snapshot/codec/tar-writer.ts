import type { Writable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { detachWhole } from "../io/chunk-buffers.js";
import { OutputSink } from "../io/output-sink.js";
import { encodeTarHeader, TAR_TRAILER, type TarEntryHeader, tarPadding } from "./tar-header.js";

/**
 * Writes a tar stream into a Node writable through an {@link OutputSink}: it waits for `drain`
 * past the sink's buffering so memory stays bounded, and any failure of the output (a write, its
 * `error` event, the end) rejects the next call with `ERR_SNAPSHOT_OUTPUT`.
 */
export class TarWriter {
  #remaining = 0;
  #size = 0;
  #bytes = 0;
  readonly #sink: OutputSink;

  /**
   * @param out - The output; ended by {@link end}.
   * @param signal - Ends a wait for a slow output at once, with its reason.
   */
  constructor(out: Writable, signal?: AbortSignal) {
    this.#sink = new OutputSink(out, "write import tar", signal);
  }

  /** Bytes handed to the writable so far. */
  get bytesWritten(): number {
    return this.#bytes;
  }

  /** The output's sink: ends or flushes it, and destroys it on failure. */
  get sink(): OutputSink {
    return this.#sink;
  }

  async #push(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    this.#bytes += chunk.length;
    await this.#sink.write(chunk);
  }

  async #finishEntry(): Promise<void> {
    if (this.#remaining > 0) {
      throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", `archive/tar: missed writing ${this.#remaining} bytes`);
    }
    await this.#push(tarPadding(this.#size));
    this.#size = 0;
  }

  /** Starts an entry; the previous one must have received all its bytes. */
  async writeHeader(h: TarEntryHeader): Promise<void> {
    await this.#finishEntry();
    await this.#push(encodeTarHeader(h));
    this.#remaining = h.size;
    this.#size = h.size;
  }

  /** Writes body bytes of the current entry; more than its size is Go's `write too long`. */
  async write(chunk: Uint8Array): Promise<void> {
    if (chunk.length > this.#remaining) {
      const fits = chunk.subarray(0, this.#remaining);
      this.#remaining = 0;
      await this.#push(fits);
      throw new CocoonError("ERR_SNAPSHOT_INTEGRITY", "archive/tar: write too long");
    }
    this.#remaining -= chunk.length;
    await this.#push(chunk);
  }

  /**
   * Frees `buffers`, written already, once the output has taken every byte written so far, when
   * the output is Node's own file or socket stream (see `isKernelSink`): a decoded chunk is then
   * freed at once instead of at a collection. Only buffers that span their whole `ArrayBuffer` are
   * freed; any other writable may keep what it was given, so its buffers are left to the collector.
   */
  release(buffers: readonly Uint8Array[]): void {
    this.onTaken(() => {
      for (const b of buffers) detachWhole(b);
    });
  }

  /**
   * Runs `free` once a file or socket output has taken every byte written so far, so the buffers
   * written may be freed or reused; never for any other writable, which may keep what it was given.
   */
  onTaken(free: () => void): void {
    if (this.#sink.kernelSink) this.#sink.afterWritten(free);
  }

  /** Pads the last entry and writes the two zero blocks (a copy of its own: the output may keep it). */
  async close(): Promise<void> {
    await this.#finishEntry();
    await this.#push(TAR_TRAILER.slice());
  }
}

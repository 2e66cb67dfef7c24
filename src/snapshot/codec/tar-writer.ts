import { WriteStream } from "node:fs";
import { Socket } from "node:net";
import type { Writable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { endsSlab, freeSlabOf } from "../../internal/body-slabs.js";
import { detachWhole } from "../io/chunk-buffers.js";
import { encodeTarHeader, TAR_TRAILER, type TarEntryHeader, tarPadding } from "./tar-header.js";

const NOTHING = new Uint8Array(0);

/**
 * Bytes the writer lets queue in the output before it waits for `drain`, above the output's own
 * high-water mark (64 KiB for files and sockets): while one write is in flight the output gathers
 * the pieces that follow and writes them in one `writev`. Waiting at the mark, a v1 pull into a
 * file made one thread-pool write per network piece (tens of KiB each).
 */
const BUFFERED = 4 << 20;

/** Writes a tar stream into a Node writable, waiting for `drain` past {@link BUFFERED} queued bytes so memory stays bounded. */
export class TarWriter {
  #remaining = 0;
  #size = 0;
  #bytes = 0;
  readonly #out: Writable;
  /** A file or socket (a pipe, a child's stdin): Node has handed a write's bytes to the kernel when its callback runs. */
  readonly #kernelSink: boolean;

  constructor(out: Writable) {
    this.#out = out;
    this.#kernelSink = out instanceof WriteStream || out instanceof Socket;
  }

  /** Bytes handed to the writable so far. */
  get bytesWritten(): number {
    return this.#bytes;
  }

  async #push(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    this.#bytes += chunk.length;
    if (this.#out.destroyed) throw new CocoonError("ERR_SNAPSHOT_TRANSFER", "write import tar: output closed");
    if (this.#out.write(chunk) || this.#out.writableLength < BUFFERED) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error): void => {
        this.#out.off("drain", done);
        this.#out.off("error", done);
        this.#out.off("close", onClose);
        if (err) reject(err);
        else resolve();
      };
      const onClose = (): void => done(new CocoonError("ERR_SNAPSHOT_TRANSFER", "write import tar: output closed"));
      this.#out.once("drain", done);
      this.#out.once("error", done);
      this.#out.once("close", onClose);
    });
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
   * the output is a file or a socket: a decoded chunk is then freed at once instead of at a
   * collection. Only buffers that span their whole `ArrayBuffer` are freed; any other writable may
   * keep what it was given (a `PassThrough` does), so its buffers are left to the collector.
   */
  release(buffers: readonly Uint8Array[]): void {
    this.onTaken(() => {
      for (const b of buffers) detachWhole(b);
    });
  }

  /**
   * Frees the body slab `piece` ends (see `freeSlabOf`), written already, once the output has taken
   * every byte written so far, under the same rule as {@link release}; any other piece is left alone.
   */
  releaseSlab(piece: Uint8Array): void {
    if (endsSlab(piece)) this.onTaken(() => freeSlabOf(piece));
  }

  /**
   * Runs `free` once a file or socket output has taken every byte written so far, so the buffers
   * written may be freed or reused; never for any other writable, which may keep what it was given.
   */
  onTaken(free: () => void): void {
    if (!this.#kernelSink || this.#out.destroyed) return;
    // Writes complete in order: the callback of an empty write runs after every earlier one's.
    this.#out.write(NOTHING, (err) => {
      if (!err) free();
    });
  }

  /** Pads the last entry and writes the two zero blocks. */
  async close(): Promise<void> {
    await this.#finishEntry();
    await this.#push(TAR_TRAILER);
  }
}

import { open, type FileHandle } from "node:fs/promises";
import type { PieceSource, ReadAt } from "./piece-source.js";
import { readFully } from "./positional-read.js";

/**
 * Bytes per piece when an {@link ExportFile} is read as a stream (tar headers, files up to 16 MiB).
 * Node's default 64 KiB makes a push wait on one thread pool round trip per 64 KiB; 4 MiB pieces,
 * one or two read per large file for its header alone, left a v1 push's peak 15 MiB higher
 * (`BENCHMARKS.md`, "Snapshot internals").
 */
export const EXPORT_READ_SIZE = 1 << 20;

/** Reads a file from the start, each read at the next position. */
class FileSource implements PieceSource {
  readonly #path: string;
  #handle: Promise<FileHandle> | undefined;
  /** The open file's descriptor, once opened and until closed. */
  #fd: number | undefined;
  #position = 0;
  /** Positional reads under way on the handle's descriptor, which {@link close} waits for. */
  #reading = 0;
  #idle: (() => void) | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  #file(): Promise<FileHandle> {
    this.#handle ??= open(this.#path, "r").then((handle) => {
      this.#fd = handle.fd;
      return handle;
    });
    return this.#handle;
  }

  async next(): Promise<Uint8Array | undefined> {
    const piece = Buffer.allocUnsafe(EXPORT_READ_SIZE);
    const n = await this.readInto(piece);
    return n === 0 ? undefined : piece.subarray(0, n);
  }

  readonly readInto = async (out: Uint8Array): Promise<number> => {
    const { bytesRead } = await (await this.#file()).read(out, 0, out.length, this.#position);
    this.#position += bytesRead;
    return bytesRead;
  };

  readonly reserve = (length: number, back = 0): ReadAt => {
    const start = this.#position - back;
    this.#position = start + length;
    return (out, offset) => {
      const fd = this.#fd;
      if (fd === undefined) return this.#file().then(() => this.#readAt(out, Math.min(out.length, length - offset), start + offset));
      return this.#readAt(out, Math.min(out.length, length - offset), start + offset);
    };
  };

  #readAt(out: Uint8Array, want: number, position: number): Promise<number> {
    this.#reading++;
    return readFully(this.#fd as number, out, want, position).finally(this.#readDone);
  }

  readonly #readDone = (): void => {
    if (--this.#reading === 0) this.#idle?.();
  };

  async close(): Promise<void> {
    const opening = this.#handle;
    this.#handle = undefined;
    this.#fd = undefined;
    // A failed open was reported by the read that made it.
    const handle = await opening?.catch(() => undefined);
    // The descriptor is not closed under a read, whose number a file opened next could take.
    if (this.#reading > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    this.#idle = undefined;
    await handle?.close();
  }
}

/**
 * A `cocoon snapshot export` tar on disk, as the source of `pushSnapshot`. Iterated, it yields
 * {@link EXPORT_READ_SIZE} pieces; a push reads each chunk of a large file straight into the
 * chunk's buffer instead, and a v1 file above 16 MiB into a few reused buffers as it is sent: no
 * piece is allocated and copied per {@link EXPORT_READ_SIZE}, a cost a sparse v2 push feels, nor
 * left for the collector to find. The file is opened on the first read and closed at the end.
 */
export class ExportFile implements AsyncIterable<Uint8Array> {
  /** The file's path. */
  readonly path: string;

  /** @param path - The export tar's path. */
  constructor(path: string) {
    this.path = path;
  }

  /** The file's bytes in {@link EXPORT_READ_SIZE} pieces. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const source = new FileSource(this.path);
    try {
      for (let piece = await source.next(); piece !== undefined; piece = await source.next()) yield piece;
    } finally {
      await source.close();
    }
  }
}

/** The {@link PieceSource} of a push's input: positional reads for an {@link ExportFile}, the iterator otherwise. */
export function pieceSourceOf(input: AsyncIterable<Uint8Array>): PieceSource {
  if (input instanceof ExportFile) return new FileSource(input.path);
  const it = input[Symbol.asyncIterator]();
  return {
    next: async () => {
      const next = await it.next();
      if (next.done === true) return undefined;
      return next.value instanceof Uint8Array ? next.value : Buffer.from(next.value);
    },
    close: async () => {
      await it.return?.();
    },
  };
}

/** An export tar on disk as a push source: `pushSnapshot(readExportFile(path), registry, options)`. */
export function readExportFile(path: string): ExportFile {
  return new ExportFile(path);
}

import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { untilAborted } from "../../internal/until-aborted.js";
import { type TarEnding, readTar } from "../codec/tar-reader.js";
import { ExportFormatError } from "../export/export-format-error.js";
import { parseSparseRecords } from "../export/sparse-records.js";
import { ByteReader } from "../io/byte-reader.js";
import { StreamRefusal } from "../io/stream-refusal.js";
import { checkRestoreEntry } from "./entry-checks.js";
import { type FilePlan, type RestoredFile, writeRestoredFile } from "./write-file.js";

export type { RestoredFile } from "./write-file.js";

/** What {@link restoreSnapshot} wrote. */
export interface RestoreResult {
  /** Every file, in the tar's order (`snapshot.json` first in an import tar). */
  readonly files: readonly RestoredFile[];
  /** Data bytes written, holes not counted: the sum of the files' data extents. */
  readonly bytes: number;
}

/** Options of {@link restoreSnapshot}. */
export interface RestoreOptions {
  /** Ends the restore at once with the signal's reason, also while the source stalls; the source is then stopped. */
  readonly signal?: AbortSignal | undefined;
}

/** The piece in which data is read from the tar and written to a file. */
const PIECE = 1 << 20;

/** A file's plan from its entry: a sparse entry's extents and size from its records, else one extent. */
function planOf(name: string, mode: number, size: number, pax: Readonly<Record<string, string>>): FilePlan {
  const layout = parseSparseRecords(name, pax, size);
  const perm = mode & 0o777;
  if (layout !== undefined) return { name, mode: perm, size: layout.size, dataExtents: layout.extents };
  return { name, mode: perm, size, dataExtents: size > 0 ? [{ offset: 0, length: size }] : [] };
}

async function checkDir(dir: string): Promise<void> {
  if (typeof dir !== "string" || dir === "") throw new CocoonError("ERR_INVALID_ARGUMENT", "restoreSnapshot: dir must be a directory path");
  const info = await stat(dir).catch((err: unknown) => {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `restoreSnapshot: dir ${JSON.stringify(dir)}: ${(err as Error).message}`, { cause: err });
  });
  if (!info.isDirectory()) throw new CocoonError("ERR_INVALID_ARGUMENT", `restoreSnapshot: dir ${JSON.stringify(dir)} is not a directory`);
}

async function restore(reader: ByteReader, dir: string, signal: AbortSignal | undefined): Promise<RestoreResult> {
  const aborted = (): void => signal?.throwIfAborted();
  const files: RestoredFile[] = [];
  const seen = new Set<string>();
  const ending: TarEnding = { trailer: false };
  const buffer = new Uint8Array(PIECE);
  let bytes = 0;
  let at = "the first entry";
  try {
    for await (const { entry, body } of readTar(reader, ending)) {
      aborted();
      at = JSON.stringify(entry.name);
      checkRestoreEntry(entry, seen);
      const plan = planOf(entry.name, entry.mode, entry.size, entry.pax);
      await writeRestoredFile(dir, plan, body, buffer, aborted);
      files.push(plan);
      bytes += entry.size;
      at = `the entry after ${JSON.stringify(entry.name)}`;
    }
  } catch (err) {
    if (!(err instanceof StreamRefusal)) throw err;
    throw new ExportFormatError(at, "", `restore: ${at}: ${err.message}`, { cause: err });
  }
  if (!ending.trailer) throw new ExportFormatError(at, "", `restore: the tar ends at ${at} without its two zero blocks`);
  await readTail(reader);
  return { files, bytes };
}

/** A tar record (GNU tar's default blocking): the most padding a writer may put after the trailer. */
const TAIL = 10 * 1024;

/**
 * Reads on after the trailer to the end of the source, when it ends within {@link TAIL} bytes, so
 * a writer that ends it (a pull into a `PassThrough`) sees every byte taken before the source is
 * closed; a longer tail is left unread, to the close.
 */
async function readTail(reader: ByteReader): Promise<void> {
  for (let read = 0; read < TAIL; read += 512) {
    const block = await reader.readExact(512).catch(() => null); // a partial block is the end too
    if (block === null) return;
  }
}

/**
 * Restores an import tar (what `pullSnapshot` writes, the stream `cocoon snapshot import` reads)
 * into the existing directory `dir`: each entry becomes a file there, created with `O_EXCL` and
 * `O_NOFOLLOW` (never over an existing file, never through a link), its permission bits set
 * (setuid, setgid and sticky dropped). A sparse entry (`COCOON.sparse.map`, `COCOON.sparse.size`)
 * comes back with the export's size and data extents: each extent written where it lies, the holes
 * never written. PAX records (`x`, `g`), GNU long names and USTAR prefixes are read as Go's
 * `archive/tar` reads them; a PAX or long-name block is at most 1 MiB, a name at most 255 bytes.
 *
 * Refused with `ERR_SNAPSHOT_FORMAT` (an `ExportFormatError` naming the entry), before the entry is
 * written: a name that is not one file name (`..`, absolute, holding `/` or a backslash), a link,
 * device, FIFO or directory entry, a name that appears twice, a malformed sparse record, a header
 * whose checksum is wrong; and where it is met, a tar that ends early (inside a header or a body,
 * or without its two zero blocks). After the trailer the source is read on to its end when that
 * comes within 10 KiB (a tar record's padding), so the promise resolves once a writer such as a
 * pull has ended it; then the source is closed. A failure of the file system (an existing file, a full disk) is
 * `ERR_SNAPSHOT_OUTPUT` naming the file; a failure of the source passes through as it is. On any
 * failure the files already written stay: restore into a fresh directory and remove it then.
 *
 * @param source - The tar's bytes: a Node `Readable` or any async iterable of byte chunks; once reading began, stopped on failure or abort (a `Readable` destroyed).
 * @param dir - An existing directory, best an empty one.
 * @param options - `signal` ends the restore with its reason.
 * @returns Every file written with its size, mode and data extents, and the data bytes written.
 * @throws CocoonError `ERR_INVALID_ARGUMENT` when `dir` is not a directory.
 * @example
 * ```ts
 * import { PassThrough } from "node:stream";
 * import { pullSnapshot, restoreSnapshot } from "@cocoonstack/cocoon-common/snapshot";
 *
 * const tar = new PassThrough();
 * const [, restored] = await Promise.all([
 *   pullSnapshot(registry, "vm-a:hibernate", tar),
 *   restoreSnapshot(tar, "/var/lib/cocoon/restore/vm-a"),
 * ]);
 * restored.files.map((f) => f.name); // => ["snapshot.json", "config.json", "memory-ranges", …]
 * ```
 */
export async function restoreSnapshot(
  source: AsyncIterable<Uint8Array>,
  dir: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const { signal } = options;
  if (typeof (source as Partial<AsyncIterable<Uint8Array>> | null)?.[Symbol.asyncIterator] !== "function") {
    throw new CocoonError("ERR_INVALID_ARGUMENT", "restoreSnapshot: source must be an async iterable of bytes");
  }
  signal?.throwIfAborted();
  await checkDir(dir);
  const reader = new ByteReader(source);
  try {
    return await untilAborted(restore(reader, dir, signal), signal);
  } catch (err) {
    if (signal?.aborted) {
      // a stalled source may never answer a stop that waits behind its pending read: a stream is destroyed at once
      if (typeof (source as Partial<Readable>).destroy === "function") (source as Readable).destroy();
      else void reader.close().catch(() => undefined);
      throw signal.reason;
    }
    throw err;
  } finally {
    if (signal?.aborted !== true) await reader.close().catch(() => undefined);
  }
}

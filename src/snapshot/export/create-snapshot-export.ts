import type { Readable } from "node:stream";
import { CocoonError } from "../../errors.js";
import { untilAborted } from "../../internal/until-aborted.js";
import { TAR_TRAILER, tarPadding } from "../codec/tar-header.js";
import type { SnapshotExportConfig } from "./envelope-schema.js";
import { ExportFormatError } from "./export-format-error.js";
import { planExport, type PlannedEntry, type SnapshotExportFile } from "./export-plan.js";

/** Options of {@link createSnapshotExport}. */
export interface SnapshotExportOptions {
  /** The time of `snapshot.json` and of every file without its own (default: when the export is created); rounded to the second. */
  readonly mtime?: Date;
  /** Stops the stream: the next read, or one waiting on a file's stalled data, rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/require-await -- a sync source read as `for await` reads it
async function* asyncOf(data: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* data;
}

async function* bodyOf(entry: PlannedEntry, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  if (entry.data instanceof Uint8Array) {
    if (entry.data.length > 0) yield entry.data;
    return;
  }
  const data = entry.data;
  const source = Symbol.asyncIterator in data ? data[Symbol.asyncIterator]() : asyncOf(data);
  let given = 0;
  let done = false;
  try {
    for (;;) {
      // A source that stalls must not hold a read past an abort.
      const next = await untilAborted(source.next(), signal);
      if (next.done === true) break;
      const chunk: unknown = next.value;
      if (!(chunk instanceof Uint8Array))
        throw new CocoonError("ERR_INVALID_ARGUMENT", `${entry.name}: data gave a ${typeof chunk}, not bytes`);
      given += chunk.length;
      if (given > entry.stored)
        throw new ExportFormatError(entry.name, "size", `${entry.name}: data gave more than its ${entry.stored} bytes`);
      if (chunk.length > 0) yield chunk;
    }
    done = true;
  } finally {
    // Closed as `for await` closes it. After an abort its pending read may never end, so it is not
    // waited for, and a stream is destroyed: an iterator's `return` waits for that pending read.
    if (!done) {
      const closing = source.return?.();
      if (signal?.aborted) {
        closing?.catch(() => undefined);
        (data as Partial<Pick<Readable, "destroy">>).destroy?.();
      } else await closing;
    }
  }
  if (given < entry.stored)
    throw new ExportFormatError(entry.name, "size", `${entry.name}: data gave ${given} of its ${entry.stored} bytes`);
}

function* pieces(entries: readonly PlannedEntry[]): Generator<Uint8Array | PlannedEntry> {
  for (const entry of entries) {
    yield entry.header;
    yield entry;
    const padding = tarPadding(entry.stored);
    if (padding.length > 0) yield padding;
  }
  yield TAR_TRAILER.slice();
}

/** The tar, piece by piece; an abort is noticed before each piece is handed over. */
async function* writeExport(
  entries: readonly PlannedEntry[],
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array, void, undefined> {
  for (const piece of pieces(entries)) {
    if (piece instanceof Uint8Array) {
      signal?.throwIfAborted();
      yield piece;
      continue;
    }
    for await (const chunk of bodyOf(piece, signal)) {
      signal?.throwIfAborted();
      yield chunk;
    }
  }
}

/**
 * Writes a `cocoon snapshot export` tar stream, the input of `pushSnapshot` (`./snapshot`): `snapshot.json`
 * (the envelope around `config`, as cocoon writes it), then each file in order, regular or sparse
 * (`COCOON.sparse.map` and `COCOON.sparse.size` from its extents), with the headers Go's tar writer
 * gives cocoon's exports (USTAR; PAX only for the sparse records, a non-ASCII name or one too long
 * for USTAR; uid and gid 0, no user or group names).
 *
 * Everything is checked before the first byte, so the stream is one a push accepts: the config
 * against {@link SnapshotExportConfigSchema}, each name (one file name, not `snapshot.json`, not
 * twice), mode, time, size and sparse layout (the grammar `parseSparseRecords` of `./snapshot` reads). The
 * files' data is read as the stream is: memory stays at what their sources hand over. A source that
 * gives more or fewer bytes than its size fails the stream at that point.
 *
 * @param config - `snapshot.json`'s `config`; `version` is always 1.
 * @param files - The files, written in this order.
 * @param options - The time stamped on the entries, an abort signal.
 * @returns The tar bytes, piece by piece: give it to `pushSnapshot`, or to `pipeline` with a file.
 * @throws ExportFormatError (naming the entry and the field) or `ERR_INVALID_ARGUMENT`, at once, for
 * an export a push would refuse; later, from the stream, for data of the wrong length.
 * @example
 * ```ts
 * const memory = new Uint8Array(8192).fill(7);
 * const tar = createSnapshotExport({ id: "snap-1", name: "vm-a", hypervisor: "cloud-hypervisor", cpu: 2 }, [
 *   { name: "config.json", data: new TextEncoder().encode('{"cpus":{"boot_vcpus":2}}') },
 *   { name: "memory-ranges", data: memory, mode: 0o100600, sparse: { size: 2 ** 30, extents: [{ offset: 0, length: 8192 }] } },
 * ]);
 * let bytes = 0;
 * for await (const piece of tar) bytes += piece.length;
 * bytes; // => 12800: 4 headers and a PAX block, 3 bodies padded to 512 bytes, 2 zero blocks
 * ```
 */
export function createSnapshotExport(
  config: SnapshotExportConfig,
  files: readonly SnapshotExportFile[],
  options: SnapshotExportOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const entries = planExport(config, files, options.mtime ?? new Date());
  return writeExport(entries, options.signal);
}

import { CocoonError, isCocoonError } from "../../errors.js";

/**
 * An export that breaks the `cocoon snapshot export` format, code `ERR_SNAPSHOT_FORMAT`: thrown by
 * {@link pushSnapshot} before it uploads the entry (or anything, when the entry is `snapshot.json`
 * or comes before it), and by `createSnapshotExport` (`./snapshot/export`) before it writes a byte.
 *
 * `entry` names the tar entry and `field` what in it is wrong: a path in `snapshot.json`
 * (`config.cpu`, `version`), a PAX record (`COCOON.sparse.map`), a header field (`name`,
 * `typeflag`, `mode`, `size`), or `""` for the entry as a whole (not JSON, missing). The message
 * is Go's where Go refuses the same export.
 *
 * @example
 * ```ts
 * try {
 *   createSnapshotExport({ id: "", name: "vm-a" }, []);
 * } catch (err) {
 *   if (isExportFormatError(err)) console.error(err.entry, err.field);
 *   // => snapshot.json config.id
 * }
 * ```
 */
export class ExportFormatError extends CocoonError {
  /** Always `ExportFormatError`. */
  override name = "ExportFormatError";
  /** The tar entry: `snapshot.json` or a file name. */
  readonly entry: string;
  /** What in the entry is wrong (`config.cpu`, `COCOON.sparse.map`, `name`), `""` for the whole entry. */
  readonly field: string;

  /**
   * @param entry - The tar entry.
   * @param field - What in it is wrong, `""` for the whole entry.
   * @param message - Text naming both.
   * @param options - `cause`: the underlying error.
   */
  constructor(entry: string, field: string, message: string, options?: ErrorOptions) {
    super("ERR_SNAPSHOT_FORMAT", message, options);
    this.entry = entry;
    this.field = field;
  }
}

/**
 * Reports whether `err` is an {@link ExportFormatError}; works across duplicate installs of the
 * package, where `instanceof` does not.
 *
 * @example
 * ```ts
 * const exported = spawn("cocoon", ["snapshot", "export", vm]).stdout;
 * const pushed = await pushSnapshot(exported, registry, { name: vm }).catch((err: unknown) => {
 *   if (isExportFormatError(err)) console.error(`bad export: ${err.entry} ${err.field}`);
 *   throw err;
 * });
 * ```
 */
export function isExportFormatError(err: unknown): err is ExportFormatError {
  return isCocoonError(err, "ERR_SNAPSHOT_FORMAT") && (err as { name?: unknown }).name === "ExportFormatError";
}

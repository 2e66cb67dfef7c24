import { fileNameProblem } from "../file-name.js";
import type { TarEntry } from "../codec/tar-reader.js";
import { ENVELOPE_NAME } from "../codec/envelope.js";
import { ExportFormatError } from "../export/export-format-error.js";

/** What a push does with one export entry. */
export type ExportEntryKind = "envelope" | "file" | "skip";

/** A regular file; `7`, a contiguous file, is one too (POSIX: "treated as a regular file"). */
const FILE_TYPES: ReadonlySet<string> = new Set(["0", "7"]);
/** Hard and symbolic links, devices, directories, FIFOs: no file data, skipped as Go skips them. */
const NO_DATA_TYPES: ReadonlySet<string> = new Set(["1", "2", "3", "4", "5", "6"]);

/**
 * Sorts the entries of an export stream, refusing what would put a name or data in the artifact
 * that the import could not take back: a file whose name is not a single file name (`..`, an
 * absolute path, a `/` anywhere), a name seen before, a GNU sparse file, or an entry of another
 * type that carries data (GNU sparse `S`, multi-volume `M`, vendor types). Nothing is uploaded
 * for a refused entry; the {@link ExportFormatError} names it and the field (`name`, `typeflag`).
 */
export class ExportNames {
  readonly #seen = new Set<string>();

  /** Whether `entry` is the envelope, a file to upload, or an entry without data to skip; throws {@link ExportFormatError} otherwise. */
  classify(entry: TarEntry): ExportEntryKind {
    const quoted = JSON.stringify(entry.name);
    if (entry.name === ENVELOPE_NAME) {
      this.#claim(entry.name, quoted);
      return "envelope";
    }
    if (NO_DATA_TYPES.has(entry.typeflag)) return "skip";
    if (!FILE_TYPES.has(entry.typeflag)) {
      if (entry.typeflag !== "S" && entry.size === 0) return "skip";
      const message = `export entry ${quoted} has tar type ${JSON.stringify(entry.typeflag)}, whose data a snapshot cannot hold`;
      throw new ExportFormatError(entry.name, "typeflag", message);
    }
    const problem = fileNameProblem(entry.name);
    if (problem !== undefined)
      throw new ExportFormatError(entry.name, "name", `export entry ${quoted} is not a single file name: ${problem}`);
    const gnuSparse = Object.keys(entry.pax).find((k) => k.startsWith("GNU.sparse."));
    if (gnuSparse !== undefined) {
      throw new ExportFormatError(entry.name, gnuSparse, `export entry ${quoted} is a GNU sparse file, whose data a snapshot cannot hold`);
    }
    this.#claim(entry.name, quoted);
    return "file";
  }

  #claim(name: string, quoted: string): void {
    if (this.#seen.has(name)) throw new ExportFormatError(name, "name", `export entry ${quoted} appears twice`);
    this.#seen.add(name);
  }
}

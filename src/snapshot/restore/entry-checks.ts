import type { TarEntry } from "../codec/tar-reader.js";
import { ExportFormatError } from "../export/export-format-error.js";
import { fileNameProblem } from "../file-name.js";

/** The longest file name restored, in UTF-8 bytes: Linux's `NAME_MAX`, the most one directory entry holds. */
export const MAX_RESTORE_NAME = 255;

const encoder = new TextEncoder();

/** Names of tar type flags an import tar never holds, for the refusal's message. */
const KINDS: Readonly<Record<string, string>> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "5": "a directory",
  "6": "a FIFO",
  "7": "a contiguous file",
  S: "a GNU sparse file",
};

/**
 * Refuses an entry a restore must not write: anything but a regular file (links, devices, FIFOs,
 * directories), a name that is not one clean file name of at most {@link MAX_RESTORE_NAME} bytes
 * (`..`, an absolute path, a `/` or a backslash: a name that could resolve outside the
 * directory), and a name already restored (`seen`, which the name then joins).
 *
 * @throws ExportFormatError naming the entry and the field (`typeflag` or `name`).
 */
export function checkRestoreEntry(entry: TarEntry, seen: Set<string>): void {
  const { name, typeflag } = entry;
  const problem = fileNameProblem(name);
  if (problem !== undefined) throw new ExportFormatError(name, "name", `restore: entry ${JSON.stringify(name)}: ${problem}`);
  const bytes = encoder.encode(name).length;
  if (bytes > MAX_RESTORE_NAME) {
    throw new ExportFormatError(
      name,
      "name",
      `restore: entry ${JSON.stringify(name)}: name of ${bytes} bytes, more than ${MAX_RESTORE_NAME}`,
    );
  }
  if (typeflag !== "0") {
    const kind = KINDS[typeflag] ?? `type ${JSON.stringify(typeflag)}`;
    throw new ExportFormatError(name, "typeflag", `restore: entry ${JSON.stringify(name)} is ${kind}, not a regular file`);
  }
  if (seen.has(name)) throw new ExportFormatError(name, "name", `restore: entry ${JSON.stringify(name)} appears twice`);
  seen.add(name);
}

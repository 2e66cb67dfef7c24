import { CocoonError } from "../../errors.js";
import { messageOf } from "../../internal/message-of.js";
import { ENVELOPE_NAME, marshalExportEnvelope } from "../codec/envelope.js";
import { sparseMapProblem } from "../codec/sparse-map.js";
import { SparsePAX } from "../codec/sparse-pax.js";
import { encodeTarHeader } from "../codec/tar-header.js";
import { MAX_SPECIAL_FILE } from "../codec/tar-reader.js";
import { fileNameProblem } from "../file-name.js";
import { SnapshotExportConfigSchema, type SnapshotExportConfig } from "./envelope-schema.js";
import { ExportFormatError } from "./export-format-error.js";
import { issueError } from "./schema-issues.js";
import { formatSparseMap, type SparseExtent, type SparseLayout } from "./sparse-records.js";

/** One file of an export: see {@link createSnapshotExport}. */
export interface SnapshotExportFile {
  /** The file name: one name, no directory (`memory-ranges`, `overlay.qcow2`, `config.json`). */
  readonly name: string;
  /** The bytes the tar entry stores: the whole file, or for a sparse file its extents' bytes one after another. */
  readonly data: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
  /** How many bytes `data` gives; required unless `data` is a `Uint8Array` or the file is sparse (the extents' sum). */
  readonly size?: number;
  /** Mode bits, written verbatim (default `0o640`; cocoon writes `S_IFREG` with the permissions, `0o100600`). */
  readonly mode?: number;
  /** Modification time (default: the export's). */
  readonly mtime?: Date;
  /** Makes the file sparse: its full size and the extents that hold data; `data` holds only those. */
  readonly sparse?: SparseLayout;
}

/** One entry ready to write: its header blocks, and the body bytes it expects. */
export interface PlannedEntry {
  readonly name: string;
  readonly header: Uint8Array;
  readonly stored: number;
  readonly data: SnapshotExportFile["data"];
}

/** Largest mtime a USTAR header holds (11 octal digits); Go would switch to a PAX record past it. */
const MAX_MTIME = 0o77777777777;
/** Largest mode a USTAR header holds (7 octal digits). */
const MAX_MODE = 0o7777777;

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** Go's tar writer: whole seconds, rounded to the nearest. */
function seconds(entry: string, date: Date): number {
  const ms = date instanceof Date ? date.getTime() : Number.NaN;
  const s = Math.round(ms / 1000);
  if (!(s >= 0 && s <= MAX_MTIME)) throw new ExportFormatError(entry, "mtime", `${entry}: mtime must be a date from 1970 to 2242`);
  return s;
}

const isExtent = (e: unknown): e is SparseExtent =>
  typeof e === "object" && e !== null && isCount((e as Partial<SparseExtent>).offset) && isCount((e as Partial<SparseExtent>).length);

function sparseRecords(file: SnapshotExportFile, stored: number | undefined): { records: Record<string, string>; stored: number } {
  const sparse: unknown = file.sparse;
  const fail = (field: string, what: string) => new ExportFormatError(file.name, field, `${file.name}: ${what}`);
  if (typeof sparse !== "object" || sparse === null) throw fail("sparse", "sparse must be an object ({ size, extents })");
  const { size, extents } = sparse as Partial<Record<keyof SparseLayout, unknown>>;
  if (!isCount(size) || size === 0) throw fail("sparse.size", "sparse.size must be a positive integer");
  if (!Array.isArray(extents)) throw fail("sparse.extents", "sparse.extents must be an array");
  const checked: SparseExtent[] = [];
  for (const [i, e] of (extents as readonly unknown[]).entries()) {
    if (!isExtent(e)) throw fail(`sparse.extents[${i}]`, `sparse.extents[${i}] needs a non-negative integer offset and length`);
    checked.push(e);
  }
  const sum = checked.reduce((n, e) => n + e.length, 0);
  if (stored !== undefined && stored !== sum) throw fail("size", `size ${stored} is not the ${sum} bytes its extents hold`);
  let map: string;
  try {
    map = formatSparseMap(checked);
  } catch (err) {
    throw fail("sparse.extents", messageOf(err).replace("formatSparseMap: extents", "sparse.extents"));
  }
  const problem = sparseMapProblem(map, sum, size);
  if (problem !== undefined) throw fail("sparse.extents", problem);
  return { records: { [SparsePAX.Map]: map, [SparsePAX.Size]: String(size) }, stored: sum };
}

function planFile(file: SnapshotExportFile, index: number, mtime: Date, seen: Set<string>): PlannedEntry {
  if (typeof file !== "object" || (file as SnapshotExportFile | null) === null) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `snapshot export: files[${index}] must be an object`);
  }
  const name = typeof file.name === "string" ? file.name : "";
  const problem = fileNameProblem(name) ?? (name === ENVELOPE_NAME ? `it is ${ENVELOPE_NAME}, which the writer writes itself` : undefined);
  if (problem !== undefined)
    throw new ExportFormatError(name, "name", `export file ${JSON.stringify(name)} is not a single file name: ${problem}`);
  if (seen.has(name)) throw new ExportFormatError(name, "name", `export file ${JSON.stringify(name)} appears twice`);
  seen.add(name);
  const data: unknown = file.data;
  const iterable = typeof data === "object" && data !== null && (Symbol.iterator in data || Symbol.asyncIterator in data);
  if (!(data instanceof Uint8Array) && !iterable) {
    throw new CocoonError("ERR_INVALID_ARGUMENT", `${name}: data must be a Uint8Array or an iterable of them`);
  }
  const given = data instanceof Uint8Array ? data.length : file.size;
  if (given !== undefined && !isCount(given)) throw new ExportFormatError(name, "size", `${name}: size must be a non-negative integer`);
  if (data instanceof Uint8Array && file.size !== undefined && file.size !== data.length) {
    throw new ExportFormatError(name, "size", `${name}: size ${file.size} is not the ${data.length} bytes of its data`);
  }
  const sparse = file.sparse === undefined ? undefined : sparseRecords(file, given);
  const stored = sparse?.stored ?? given;
  if (stored === undefined) throw new ExportFormatError(name, "size", `${name}: size is required when data is a stream`);
  const mode = file.mode ?? 0o640;
  if (!Number.isInteger(mode) || mode < 0 || mode > MAX_MODE)
    throw new ExportFormatError(name, "mode", `${name}: mode must be an integer from 0 to 0o7777777`);
  const header = encodeTarHeader({ name, size: stored, mode, mtime: seconds(name, file.mtime ?? mtime), pax: sparse?.records });
  const paxBytes = header[156] === 0x78 ? Number.parseInt(new TextDecoder().decode(header.subarray(124, 135)), 8) : 0;
  if (paxBytes > MAX_SPECIAL_FILE) {
    const field = sparse === undefined ? "name" : SparsePAX.Map;
    throw new ExportFormatError(
      name,
      field,
      `${name}: its PAX records take ${paxBytes} bytes, more than the ${MAX_SPECIAL_FILE} a tar reader takes`,
    );
  }
  return { name, header, stored, data: file.data };
}

/**
 * Checks a whole export before a byte of it is written: the config against
 * {@link SnapshotExportConfigSchema}, every file's name, size, mode, time and sparse layout. Returns
 * `snapshot.json` (as cocoon writes it: Go's compact `json.Marshal`, mode 0644) and the files.
 */
export function planExport(config: SnapshotExportConfig, files: readonly SnapshotExportFile[], mtime: Date): PlannedEntry[] {
  const checked = SnapshotExportConfigSchema.safeParse(config);
  if (!checked.success) throw issueError(ENVELOPE_NAME, checked.error, "config");
  if (!Array.isArray(files)) throw new CocoonError("ERR_INVALID_ARGUMENT", "snapshot export: files must be an array");
  const envelope = new TextEncoder().encode(marshalExportEnvelope(checked.data));
  const header = encodeTarHeader({ name: ENVELOPE_NAME, size: envelope.length, mode: 0o644, mtime: seconds(ENVELOPE_NAME, mtime) });
  const seen = new Set<string>();
  return [
    { name: ENVELOPE_NAME, header, stored: envelope.length, data: envelope },
    ...(files as readonly SnapshotExportFile[]).map((f, i) => planFile(f, i, mtime, seen)),
  ];
}

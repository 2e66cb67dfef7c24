import type { SnapshotFile } from "../../oci/snapshot-config.js";
import { parseSparseRecords } from "../export/sparse-records.js";
import { SparsePAX } from "./sparse-pax.js";
import type { TarEntry } from "./tar-reader.js";

/**
 * Go's `sparseFileMeta`: the mode and cocoon's sparse records of an export entry. Unlike Go, a
 * sparse size of 0 or less and a map that does not describe the entry's bytes are refused here,
 * because a pull (Go's, for the size; ours, for both) refuses the artifact it would make.
 *
 * @throws ExportFormatError naming the entry and the record.
 */
export function sparseFileMeta(entry: TarEntry): SnapshotFile {
  const layout = parseSparseRecords(entry.name, entry.pax, entry.size);
  if (layout === undefined) return { mode: entry.mode };
  return { mode: entry.mode, sparseMap: entry.pax[SparsePAX.Map] ?? "", sparseSize: layout.size };
}

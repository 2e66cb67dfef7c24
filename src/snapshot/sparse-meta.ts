import { CocoonError } from "../errors.js";
import type { SnapshotFile } from "../oci/snapshot-config.js";
import type { TarEntry } from "./tar-reader.js";

const SPARSE_MAP = "COCOON.sparse.map";
const SPARSE_SIZE = "COCOON.sparse.size";
const INT64_MAX = 2n ** 63n - 1n;

function format(message: string): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_FORMAT", message);
}

/**
 * Go's `sparseFileMeta`: the mode and cocoon's sparse records of an export entry. Unlike Go, a
 * sparse size of 0 or less is refused here, because Go's own pull refuses the artifact it makes.
 */
export function sparseFileMeta(entry: TarEntry): SnapshotFile {
  const map = entry.pax[SPARSE_MAP];
  if (map === undefined) return { mode: entry.mode };
  const raw = entry.pax[SPARSE_SIZE];
  if (raw === undefined) throw format(`sparse entry ${entry.name} missing ${SPARSE_SIZE}`);
  const prefix = `parse sparse size for ${entry.name}: strconv.ParseInt: parsing ${JSON.stringify(raw)}`;
  if (!/^[+-]?[0-9]+$/u.test(raw)) throw format(`${prefix}: invalid syntax`);
  const big = BigInt(raw);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) throw format(`${prefix}: value out of range`);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw format(`${prefix}: value out of range`);
  const size = Number(big);
  if (size <= 0) throw format(`sparse entry ${entry.name} has ${SPARSE_SIZE} ${raw}, want a positive size`);
  return { mode: entry.mode, sparseMap: map, sparseSize: size };
}

import { CocoonError } from "../../errors.js";
import { inIntRange } from "../../internal/go/index.js";
import { type SparseExtent, sparseMapProblem } from "../codec/sparse-map.js";
import { SparsePAX } from "../codec/sparse-pax.js";
import { ExportFormatError } from "./export-format-error.js";

export type { SparseExtent } from "../codec/sparse-map.js";

/** A sparse file as its two PAX records describe it. */
export interface SparseLayout {
  /** The file's full size in bytes (`COCOON.sparse.size`). */
  readonly size: number;
  /** Its data, in file order (`COCOON.sparse.map`); the tar entry stores these bytes one after another. */
  readonly extents: readonly SparseExtent[];
}

/** Why `extents` is no sparse map a reader takes (naming the extent), or `undefined`. */
function extentsProblem(extents: readonly SparseExtent[]): string | undefined {
  if (!Array.isArray(extents)) return "extents must be an array";
  let end = 0;
  for (const [i, e] of extents.entries()) {
    const { offset, length } = (e ?? {}) as Partial<SparseExtent>;
    for (const [field, n] of [
      ["offset", offset],
      ["length", length],
    ] as const) {
      if (typeof n !== "number" || !Number.isInteger(n)) return `extents[${i}].${field} ${String(n)} is not an integer`;
      if (n < 0) return `extents[${i}].${field} ${n} is negative`;
      if (!Number.isSafeInteger(n)) return `extents[${i}].${field} ${n} passes 2^53`;
    }
    const [o, l] = [offset as number, length as number];
    if (o + l > Number.MAX_SAFE_INTEGER) return `extents[${i}] (${o}+${l}) ends past 2^53`;
    if (o < end) return `extents[${i}] at ${o} overlaps or precedes extents[${i - 1}] (ending at ${end})`;
    end = o + l;
  }
  return undefined;
}

/**
 * Writes `COCOON.sparse.map` as cocoon does (Go's `json.Marshal` of its segments):
 * `[{"o":<offset>,"l":<length>},…]`, compact, or `null` for a file that holds no data.
 * Only a map a reader takes is written: integers from 0 to 2^53 − 1, in order, none overlapping
 * the one before.
 *
 * @throws CocoonError `ERR_INVALID_ARGUMENT` naming the extent: a non-integer, a negative value, a
 * value or an end past 2^53 − 1, an extent that goes backwards or overlaps the one before.
 * @example
 * ```ts
 * formatSparseMap([{ offset: 0, length: 8192 }, { offset: 1 << 20, length: 4096 }]);
 * // => '[{"o":0,"l":8192},{"o":1048576,"l":4096}]'
 * formatSparseMap([]); // => "null"
 * ```
 */
export function formatSparseMap(extents: readonly SparseExtent[]): string {
  const problem = extentsProblem(extents);
  if (problem !== undefined) throw new CocoonError("ERR_INVALID_ARGUMENT", `formatSparseMap: ${problem}`);
  if (extents.length === 0) return "null";
  return `[${extents.map((e) => `{"o":${e.offset},"l":${e.length}}`).join(",")}]`;
}

function sizeProblem(raw: string): string | undefined {
  const prefix = `strconv.ParseInt: parsing ${JSON.stringify(raw)}`;
  if (!/^[+-]?[0-9]+$/u.test(raw)) return `${prefix}: invalid syntax`;
  const big = BigInt(raw);
  if (!inIntRange(big, "int64") || big > BigInt(Number.MAX_SAFE_INTEGER)) return `${prefix}: value out of range`;
  return undefined;
}

/**
 * Reads the sparse records of the export entry `entry`, whose tar body holds `storedBytes`:
 * `undefined` for a regular file (no `COCOON.sparse.map`), else the layout, checked as a push
 * checks it. The grammar (docs/guides/kubelet-hibernation.md, "The export format"):
 *
 * - `COCOON.sparse.size`: a decimal integer (Go's `strconv.ParseInt`, a leading `+` or `-`
 *   allowed), positive, at most 2^53 − 1.
 * - `COCOON.sparse.map`: `null`, or a JSON array of `{"o":<offset>,"l":<length>}` objects (both
 *   keys, in either order, nothing else; JSON whitespace between tokens), each a non-negative
 *   integer without leading zeros or fraction, at most 2^53 − 1; the segments in increasing order,
 *   none overlapping the one before, each inside the size, their lengths summing to `storedBytes`;
 *   the map at most 1 MiB.
 *
 * @throws ExportFormatError naming `entry` and the record (`COCOON.sparse.size` or `COCOON.sparse.map`), with Go's message where Go refuses too.
 * @example
 * ```ts
 * const layout = parseSparseRecords("memory-ranges", { "COCOON.sparse.map": '[{"o":0,"l":8192}]', "COCOON.sparse.size": "1073741824" }, 8192);
 * layout?.extents; // => [{ offset: 0, length: 8192 }]
 * parseSparseRecords("config.json", {}, 25); // => undefined
 * ```
 */
export function parseSparseRecords(
  entry: string,
  records: Readonly<Record<string, string>>,
  storedBytes: number,
): SparseLayout | undefined {
  const map = records[SparsePAX.Map];
  if (map === undefined) return undefined;
  const raw = records[SparsePAX.Size];
  if (raw === undefined) throw new ExportFormatError(entry, SparsePAX.Size, `sparse entry ${entry} missing ${SparsePAX.Size}`);
  const bad = sizeProblem(raw);
  if (bad !== undefined) throw new ExportFormatError(entry, SparsePAX.Size, `parse sparse size for ${entry}: ${bad}`);
  const size = Number(BigInt(raw));
  if (size <= 0) {
    throw new ExportFormatError(entry, SparsePAX.Size, `sparse entry ${entry} has ${SparsePAX.Size} ${raw}, want a positive size`);
  }
  const extents: SparseExtent[] = [];
  const problem = sparseMapProblem(map, storedBytes, size, extents);
  if (problem !== undefined) {
    throw new ExportFormatError(entry, SparsePAX.Map, `sparse entry ${entry} has a malformed ${SparsePAX.Map}: ${problem}`);
  }
  return { size, extents };
}

/**
 * The longest `COCOON.sparse.map` accepted: Go's `archive/tar` reader (cocoon's import) refuses a
 * PAX header above 1 MiB, and cocoon's export keeps its maps below 800 KiB.
 */
export const MAX_SPARSE_MAP = 1 << 20;

/** JSON's whitespace (RFC 8259): what Go's decoder skips, and nothing else. */
const WS = "[ \\t\\n\\r]*";
/** One `{"o":…,"l":…}` segment: keys in either order, non-negative JSON integers without leading zeros. */
const SEGMENT = new RegExp(`${WS}\\{${WS}"(o|l)"${WS}:${WS}(0|[1-9][0-9]*)${WS},${WS}"(o|l)"${WS}:${WS}(0|[1-9][0-9]*)${WS}\\}${WS}`, "y");
const SEPARATOR = /,/y;
const OPEN = new RegExp(`^${WS}\\[${WS}`, "y");
const CLOSE = new RegExp(`\\]${WS}$`, "y");
const NULL = new RegExp(`^${WS}null${WS}$`, "u");

/** One run of data in a sparse file (a segment of its map): `length` bytes at `offset`; the rest of the file reads as zeros. */
export interface SparseExtent {
  /** Where the data starts in the file. */
  readonly offset: number;
  /** How many bytes of data. */
  readonly length: number;
}

/**
 * Why a `COCOON.sparse.map` does not describe `stored` bytes of a file of `sparseSize` bytes, or
 * `undefined` when it does: a JSON array of `{"o":offset,"l":length}` segments (cocoon's
 * `sparseSegment`), in order, not overlapping, inside the file, whose lengths sum to `stored`; or
 * `null`, what cocoon writes for a file that holds no data (Go marshals its empty list so).
 * Integers only, none past 2^53 − 1. Linear in the map's length; nothing in it is evaluated. Each
 * segment read is pushed onto `segments` when given.
 */
export function sparseMapProblem(map: string, stored: number, sparseSize: number, segments?: SparseExtent[]): string | undefined {
  if (map.length > MAX_SPARSE_MAP) return `sparse map of ${map.length} bytes, more than ${MAX_SPARSE_MAP}`;
  if (NULL.test(map)) return stored === 0 ? undefined : `sparse map holds 0 bytes, want the ${stored} stored`;
  OPEN.lastIndex = 0;
  const open = OPEN.exec(map);
  if (open === null) return "sparse map is not a JSON array";
  let at = open[0].length;
  let end = 0;
  let sum = 0;
  let index = 0;
  CLOSE.lastIndex = at;
  if (!CLOSE.test(map)) {
    for (;;) {
      SEGMENT.lastIndex = at;
      const m = SEGMENT.exec(map);
      if (m === null || m[1] === m[3]) return `sparse map segment ${index} is not {"o":<offset>,"l":<length>}`;
      const offset = Number(m[1] === "o" ? m[2] : m[4]);
      const length = Number(m[1] === "o" ? m[4] : m[2]);
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return `sparse map segment ${index} passes 2^53`;
      if (offset < end) return `sparse map segment ${index} at ${offset} overlaps or precedes the one before (ending at ${end})`;
      if (length > sparseSize - offset) return `sparse map segment ${index} (${offset}+${length}) ends past the sparse size ${sparseSize}`;
      if (length > stored - sum) return `sparse map holds more than the ${stored} stored bytes`;
      segments?.push({ offset, length });
      end = offset + length;
      sum += length;
      index++;
      at = SEGMENT.lastIndex;
      SEPARATOR.lastIndex = at;
      if (!SEPARATOR.test(map)) break;
      at = SEPARATOR.lastIndex;
    }
    CLOSE.lastIndex = at;
    if (!CLOSE.test(map)) return "sparse map is not a JSON array";
  }
  if (sum !== stored) return `sparse map holds ${sum} bytes, want the ${stored} stored`;
  return undefined;
}

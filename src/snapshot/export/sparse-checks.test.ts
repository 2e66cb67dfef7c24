// A push checks each entry's sparse records before it uploads a byte of the entry: nothing at all
// when the entry comes first or before snapshot.json; only the files before it, and no manifest,
// when it comes later (a stream cannot be read ahead).
import { describe, expect, it } from "vitest";
import { MemoryRegistry } from "../fakes.test-util.js";
import { envelopeEntry, paxEntry, pieces, tarEntry, TRAILER } from "../hostile-artifact.test-util.js";
import { pushSnapshot } from "../push/push.js";
import { isExportFormatError } from "./export-format-error.js";
import { formatSparseMap, parseSparseRecords } from "./sparse-records.js";

const STORED = Buffer.alloc(16, 1);
const sparse = (map: string, size = "4096") => paxEntry("memory-ranges", STORED, { "COCOON.sparse.map": map, "COCOON.sparse.size": size });

async function push(...entries: Buffer[]) {
  const reg = new MemoryRegistry();
  const error = await pushSnapshot(pieces(Buffer.concat([...entries, TRAILER])), reg, { name: "vm", now: () => 0 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isExportFormatError(error)) throw new Error(`not an ExportFormatError: ${String(error)}`, { cause: error });
  return { error, calls: reg.calls.map((c) => `${c.call} ${c.size ?? ""}`.trim()) };
}

describe("push: sparse records, checked before the entry is uploaded", () => {
  it.each([
    ["a map that is not JSON", "nonsense", "4096", "COCOON.sparse.map", "sparse map is not a JSON array"],
    ["overlapping segments", '[{"o":0,"l":8},{"o":4,"l":8}]', "4096", "COCOON.sparse.map", "sparse map segment 1 at 4 overlaps"],
    ["a map past the size", '[{"o":4090,"l":16}]', "4096", "COCOON.sparse.map", "ends past the sparse size 4096"],
    ["a map of other bytes than stored", '[{"o":0,"l":8}]', "4096", "COCOON.sparse.map", "sparse map holds 8 bytes, want the 16 stored"],
    ["a size that is not a number", '[{"o":0,"l":16}]', "4k", "COCOON.sparse.size", 'parsing "4k": invalid syntax'],
    ["a size of 0", '[{"o":0,"l":16}]', "0", "COCOON.sparse.size", "want a positive size"],
  ])("refuses %s, naming the entry and the record, with no request", async (_what, map, size, field, message) => {
    for (const order of [
      [envelopeEntry(), sparse(map, size)],
      [sparse(map, size), envelopeEntry()],
    ]) {
      const { error, calls } = await push(...order);
      expect([error.entry, error.field, calls]).toEqual(["memory-ranges", field, []]);
      expect(error.message).toContain(message);
    }
  });

  it("refuses a map without its size, as Go does", async () => {
    const { error, calls } = await push(envelopeEntry(), paxEntry("memory-ranges", STORED, { "COCOON.sparse.map": '[{"o":0,"l":16}]' }));
    expect([error.entry, error.field, error.message, calls]).toEqual([
      "memory-ranges",
      "COCOON.sparse.size",
      "sparse entry memory-ranges missing COCOON.sparse.size",
      [],
    ]);
  });

  it("refuses a bad map after other files: only they went up, and no manifest", async () => {
    const { error, calls } = await push(envelopeEntry(), tarEntry("config.json", "{}"), sparse("nonsense"));
    expect([error.entry, error.field]).toEqual(["memory-ranges", "COCOON.sparse.map"]);
    expect(calls).toEqual(["HasBlob", "PutBlob 2"]);
  });
});

describe("parseSparseRecords and formatSparseMap", () => {
  it("reads a layout and writes it back as cocoon does", () => {
    const records = { "COCOON.sparse.map": '[ {"l":8,"o":0}, {"o":64,"l":8} ]', "COCOON.sparse.size": "+128" };
    const layout = parseSparseRecords("disk.raw", records, 16);
    expect(layout).toEqual({
      size: 128,
      extents: [
        { offset: 0, length: 8 },
        { offset: 64, length: 8 },
      ],
    });
    expect(formatSparseMap(layout?.extents ?? [])).toBe('[{"o":0,"l":8},{"o":64,"l":8}]');
    expect(parseSparseRecords("disk.raw", { "COCOON.sparse.map": "null", "COCOON.sparse.size": "128" }, 0)).toEqual({
      size: 128,
      extents: [],
    });
    expect(parseSparseRecords("config.json", { "COCOON.note": "x" }, 2)).toBeUndefined();
  });

  it("refuses a size past 2^53 as out of range, and Go's int64 overflow the same way", () => {
    for (const size of ["9007199254740993", "99999999999999999999"]) {
      expect(() => parseSparseRecords("disk.raw", { "COCOON.sparse.map": "null", "COCOON.sparse.size": size }, 0)).toThrow(
        `parse sparse size for disk.raw: strconv.ParseInt: parsing "${size}": value out of range`,
      );
    }
  });
});

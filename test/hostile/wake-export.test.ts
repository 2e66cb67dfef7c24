import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { createSnapshotExport } from "../../src/snapshot/export/index.js";
import { formatSparseMap, parseSparseRecords, type SparseExtent } from "../../src/snapshot/index.js";
import { vmConfig } from "../../src/snapshot/snapshot-files.test-util.js";
import { outcome } from "./support/wake.js";

// Rule 6 (the export writer) and rule 7 (formatSparseMap): what the virtual kubelet writes for a wake.

describe("formatSparseMap writes only a map a reader takes", () => {
  it.each([
    ["a fractional offset", [{ offset: 0.5, length: 8 }], "extents[0].offset 0.5 is not an integer"],
    ["a NaN length", [{ offset: 0, length: Number.NaN }], "extents[0].length NaN is not an integer"],
    ["an infinite length", [{ offset: 0, length: Number.POSITIVE_INFINITY }], "extents[0].length Infinity is not an integer"],
    ["a string offset", [{ offset: "0", length: 8 }], "extents[0].offset 0 is not an integer"],
    ["a negative length", [{ offset: 0, length: -1 }], "extents[0].length -1 is negative"],
    ["a negative offset", [{ offset: -4096, length: 8 }], "extents[0].offset -4096 is negative"],
    ["an offset past 2^53", [{ offset: 2 ** 53, length: 0 }], "extents[0].offset 9007199254740992 passes 2^53"],
    ["an end past 2^53", [{ offset: 2 ** 53 - 1, length: 1 }], "extents[0] (9007199254740991+1) ends past 2^53"],
    [
      "overlapping extents",
      [
        { offset: 0, length: 8 },
        { offset: 4, length: 8 },
      ],
      "extents[1] at 4 overlaps or precedes extents[0] (ending at 8)",
    ],
    [
      "extents going backwards",
      [
        { offset: 8192, length: 10 },
        { offset: 0, length: 10 },
      ],
      "extents[1] at 0 overlaps or precedes extents[0] (ending at 8202)",
    ],
  ])("refuses %s with ERR_INVALID_ARGUMENT naming the extent", (_what, extents, why) => {
    let err: unknown;
    try {
      formatSparseMap(extents as SparseExtent[]);
    } catch (e) {
      err = e;
    }
    expect(isCocoonError(err, "ERR_INVALID_ARGUMENT")).toBe(true);
    expect((err as Error).message).toBe(`formatSparseMap: ${why}`);
  });

  it("writes what it accepts so the reader reads it back, touching extents included", () => {
    const extents = [
      { offset: 0, length: 8192 },
      { offset: 8192, length: 4096 },
      { offset: 2 ** 53 - 2, length: 1 },
    ];
    const map = formatSparseMap(extents);
    expect(map).toBe('[{"o":0,"l":8192},{"o":8192,"l":4096},{"o":9007199254740990,"l":1}]');
    const layout = parseSparseRecords("f", { "COCOON.sparse.map": map, "COCOON.sparse.size": String(2 ** 53 - 1) }, 12289);
    expect(layout?.extents).toEqual(extents);
  });
});

describe("the export writer and a stalled source", () => {
  it("rejects the pending read with the signal's reason at once when aborted, and closes the source", async () => {
    const source = new PassThrough(); // a real stream that never delivers
    const stop = new AbortController();
    const reason = new Error("export cancelled");
    const tar = createSnapshotExport(vmConfig("vm"), [{ name: "memory-ranges", data: source, size: 8192 }], { signal: stop.signal });
    const pieces: number[] = [];
    for (;;) {
      const read = tar.next();
      const first = await Promise.race([read, sleep(100, "stalled" as const)]);
      if (first === "stalled") {
        const at = performance.now();
        stop.abort(reason);
        expect(await Promise.race([outcome(read), sleep(1000, "still pending")])).toBe(reason);
        expect(performance.now() - at).toBeLessThan(1000);
        break;
      }
      if (first.done === true) throw new Error("the export ended without its data");
      pieces.push(first.value.length);
    }
    expect(pieces).toEqual([512, 110, 402, 512]); // snapshot.json: header, body, padding; then the file's header
    await sleep(0);
    expect(source.destroyed).toBe(true);
    expect(await tar.next()).toEqual({ done: true, value: undefined });
  });
});

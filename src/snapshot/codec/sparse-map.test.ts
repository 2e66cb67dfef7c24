import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { exportOf, readImport } from "../snapshot-files.test-util.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { CountingRegistry, envelopeEntry, layerJSON, manifestBytes, paxEntry, pieces, TRAILER } from "../hostile-artifact.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "../push/push.js";
import { MAX_SPARSE_MAP, sparseMapProblem } from "./sparse-map.js";

const MEMORY = "application/vnd.cocoonstack.vm.memory";

/** A v1 artifact whose memory-ranges layer holds `stored` bytes and whose config gives it `map` and `sparseSize`. */
function sparseArtifact(map: string, stored = 16, sparseSize = 1 << 20): { reg: CountingRegistry; manifest: Buffer; blob: string } {
  const reg = new CountingRegistry();
  const blob = reg.put(Buffer.alloc(stored, 7));
  const config = `{"schemaVersion":"v1","files":{"memory-ranges":{"mode":384,"sparseMap":${JSON.stringify(map)},"sparseSize":${sparseSize}}}}`;
  return { reg, manifest: manifestBytes(reg, config, [layerJSON(MEMORY, blob, stored, "memory-ranges")]), blob };
}

const MALFORMED: readonly (readonly [string, string, string])[] = [
  ["not an array", '{"o":0,"l":16}', "sparse map is not a JSON array"],
  ["null, for stored bytes", "null", "sparse map holds 0 bytes, want the 16 stored"],
  ["NULL", "NULL", "sparse map is not a JSON array"],
  ["a form feed", '\f[{"o":0,"l":16}]', "sparse map is not a JSON array"],
  ["a fraction", '[{"o":0.5,"l":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["an exponent", '[{"o":0,"l":1.6e1}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a negative offset", '[{"o":-8,"l":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a leading zero", '[{"o":00,"l":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a string number", '[{"o":"0","l":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a key in another case", '[{"O":0,"l":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a key twice", '[{"o":0,"o":16}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["an extra key", '[{"o":0,"l":16,"x":1}]', 'sparse map segment 0 is not {"o":<offset>,"l":<length>}'],
  ["a trailing comma", '[{"o":0,"l":16},]', 'sparse map segment 1 is not {"o":<offset>,"l":<length>}'],
  ["trailing bytes", '[{"o":0,"l":16}]x', "sparse map is not a JSON array"],
  ["an offset past 2^53", '[{"o":9007199254740993,"l":16}]', "sparse map segment 0 passes 2^53"],
  ["a 4000-digit length", `[{"o":0,"l":${"9".repeat(4000)}}]`, "sparse map segment 0 passes 2^53"],
  ["overlapping segments", '[{"o":0,"l":8},{"o":4,"l":8}]', "sparse map segment 1 at 4 overlaps or precedes the one before (ending at 8)"],
  [
    "segments out of order",
    '[{"o":100,"l":8},{"o":0,"l":8}]',
    "sparse map segment 1 at 0 overlaps or precedes the one before (ending at 108)",
  ],
  ["a segment past the sparse size", '[{"o":1048570,"l":16}]', "sparse map segment 0 (1048570+16) ends past the sparse size 1048576"],
  ["fewer bytes than stored", '[{"o":0,"l":15}]', "sparse map holds 15 bytes, want the 16 stored"],
  ["more bytes than stored", '[{"o":0,"l":8},{"o":64,"l":9}]', "sparse map holds more than the 16 stored bytes"],
];

describe("pull: sparse maps from the registry", () => {
  it.each(MALFORMED)("refuses a map with %s before writing a byte or fetching a layer", async (_what, map, problem) => {
    const { reg, manifest, blob } = sparseArtifact(map);
    const sink = collector();
    const err = await streamSnapshot(manifest, reg, { name: "vm", output: sink.output }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe(`layer memory-ranges has a malformed sparse map: ${problem}`);
    expect(sink.bytes().length).toBe(0);
    expect(reg.reads).not.toContain(`blob ${blob}`);
  });

  it("refuses a map longer than 1 MiB, which the import's tar reader could not read", async () => {
    const map = `[{"o":0,"l":16}${" ".repeat(MAX_SPARSE_MAP)}]`;
    const { reg, manifest } = sparseArtifact(map);
    const sink = collector();
    const err = await streamSnapshot(manifest, reg, { name: "vm", output: sink.output }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `layer memory-ranges has a malformed sparse map: sparse map of ${map.length} bytes, more than 1048576`,
    );
    expect(sink.bytes().length).toBe(0);
  });

  it("passes a well-formed map through as the PAX record, byte for byte", async () => {
    const map = '[ {"l":8, "o":0} , {"o":4096,"l":8} ]';
    const { reg, manifest } = sparseArtifact(map);
    const sink = collector();
    await streamSnapshot(manifest, reg, { name: "vm", output: sink.output, now: () => 0 });
    const [, memory] = await readImport(sink.bytes());
    expect(memory?.pax).toEqual({ "COCOON.sparse.map": map, "COCOON.sparse.size": "1048576" });
  });

  it("checks a v2 chunked file's map against the bytes its raw chunks hold", async () => {
    const reg = new CountingRegistry();
    const a = reg.put(Buffer.alloc(1 << 20, 1));
    const b = reg.put(Buffer.alloc(16, 2));
    // files[].size says 1 MiB + 16, the map says 1 MiB + 8: the chunks decide, and the map is wrong.
    const config = `{"schemaVersion":"v2","files":{"memory-ranges":{"size":1048592,"chunks":["${a}","${b}"],"sparseMap":"[{\\"o\\":0,\\"l\\":1048584}]","sparseSize":4194304}}}`;
    const manifest = manifestBytes(
      reg,
      config,
      [layerJSON(MEMORY, a, 1 << 20, "memory-ranges"), layerJSON(MEMORY, b, 16, "memory-ranges")],
      true,
    );
    const sink = collector();
    const err = await streamSnapshot(manifest, reg, { name: "vm", output: sink.output }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      "layer memory-ranges has a malformed sparse map: sparse map holds 1048584 bytes, want the 1048592 stored",
    );
    expect(sink.bytes().length).toBe(0);
    expect(reg.reads).toHaveLength(1);
  });
});

describe("push: sparse maps from the export", () => {
  it("refuses a map that does not describe the entry's bytes, before any upload", async () => {
    const reg = new MemoryRegistry();
    const memory = paxEntry("memory-ranges", Buffer.alloc(16), {
      "COCOON.sparse.map": '[{"o":0,"l":8},{"o":4,"l":8}]',
      "COCOON.sparse.size": "64",
    });
    const err = await pushSnapshot(pieces(Buffer.concat([envelopeEntry(), memory, TRAILER])), reg, { name: "vm" }).catch((e: unknown) => e);
    expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
    expect((err as Error).message).toBe(
      "sparse entry memory-ranges has a malformed COCOON.sparse.map: sparse map segment 1 at 4 overlaps or precedes the one before (ending at 8)",
    );
    expect(reg.calls).toEqual([]);
  });
});

describe("a sparse file that holds no data (cocoon's map `null`)", () => {
  it("pushes and pulls back, the map and the size as written", async () => {
    const reg = new MemoryRegistry();
    const holes = { name: "data.raw", data: new Uint8Array(0), sparse: { size: 1 << 30, extents: [] } };
    const pushed = await pushSnapshot(exportOf("vm", [holes]), reg, { name: "vm", now: () => 0 });
    const sink = collector();
    await streamSnapshot(pushed.manifestBytes, reg, { name: "vm", output: sink.output, now: () => 0 });
    const [, back] = await readImport(sink.bytes());
    expect(back?.pax).toEqual({ "COCOON.sparse.map": "null", "COCOON.sparse.size": "1073741824" });
    expect(back?.data.length).toBe(0);
  });
});

describe("sparseMapProblem", () => {
  it("accepts an empty map for an entry of no bytes, and zero-length segments", () => {
    expect(sparseMapProblem("null", 0, 10)).toBeUndefined();
    expect(sparseMapProblem(" null\n", 0, 10)).toBeUndefined();
    expect(sparseMapProblem("[]", 0, 10)).toBeUndefined();
    expect(sparseMapProblem(" [ ] ", 0, 10)).toBeUndefined();
    expect(sparseMapProblem('[{"o":0,"l":0},{"o":0,"l":4}]', 4, 10)).toBeUndefined();
    expect(sparseMapProblem('[{"o":0,"l":4},{"o":4,"l":6}]', 10, 10)).toBeUndefined();
  });

  it("reads 50 000 segments in one pass", () => {
    const segments = Array.from({ length: 50_000 }, (_, i) => `{"o":${i * 8},"l":4}`);
    const started = performance.now();
    expect(sparseMapProblem(`[${segments.join(",")}]`, 200_000, 400_000)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

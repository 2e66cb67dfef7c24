// Every export Go accepted (the export tars of Go's vectors) passes the format's checks, and its
// sparse records are exactly what formatSparseMap writes for the layout they describe.
import { describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../internal/go-vectors.test-util.js";
import { readEnvelope } from "../codec/envelope.js";
import { readImport } from "../snapshot-files.test-util.js";
import { SnapshotEnvelopeSchema } from "./envelope-schema.js";
import { formatSparseMap, parseSparseRecords } from "./sparse-records.js";

describe("the export tars of Go's vectors, against the format", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s: snapshot.json and every sparse record pass, the maps as cocoon writes them", async (dir) => {
    const entries = await readImport(read("snapshot", dir, "export.tar"));
    const envelope = entries.find((e) => e.name === "snapshot.json");
    const checked = readEnvelope(envelope?.data ?? new Uint8Array());
    expect(SnapshotEnvelopeSchema.parse(checked)).toEqual(checked);
    expect(checked.config.id).toMatch(/^snap-/u);
    let sparse = 0;
    for (const e of entries.filter((f) => f.typeflag === "0" && f.name !== "snapshot.json")) {
      const layout = parseSparseRecords(e.name, e.pax, e.data.length);
      if (layout === undefined) continue;
      sparse++;
      expect(formatSparseMap(layout.extents)).toBe(e.pax["COCOON.sparse.map"]);
      expect(String(layout.size)).toBe(e.pax["COCOON.sparse.size"]);
    }
    expect(sparse).toBe({ "v1-sparse": 2, "v2-chunked": 1, "v2-zstd-chunked": 1, "v2-knobs-small-stays-v1": 1 }[dir] ?? 0);
  });
});

// The writer against the export tars Go's tar writer made for Go's vectors: each rebuilt from its
// parts (config, files, modes, times, sparse layouts), header field by header field.
import { describe, expect, it } from "vitest";
import { readRegistryVector as read, SNAPSHOT_VECTOR_CASES } from "../../internal/go-vectors.test-util.js";
import { readEnvelope } from "../codec/envelope.js";
import { createSnapshotExport } from "./create-snapshot-export.js";
import type { SnapshotExportFile } from "./export-plan.js";
import { parseSparseRecords } from "./sparse-records.js";
import { readImport } from "../snapshot-files.test-util.js";
import { HEADER_FIELDS, storedEntries, type StoredEntry } from "./tar-blocks.test-util.js";

/**
 * What the writer does not reproduce, and why (docs/guides/kubelet-hibernation.md, "The export format"):
 * - v1-basic's directory `logs` and symlink `current`: the writer writes files only (a push skips both).
 * - v1-sparse's `COCOON.note` record: the writer writes cocoon's two sparse records and no others, so
 *   the PAX block of `memory-ranges` is shorter (its size, checksum and records differ).
 * - v1-windows-rich's `snapshot.json`: written by hand for the vector (indented, keys reversed, unknown
 *   fields, version 2, trailing bytes) and last; the writer writes Go's compact envelope, first.
 */
const EXPECTED_DIFFERENCES: Readonly<Record<string, readonly string[]>> = {
  "v1-basic": ["current: not written (typeflag 2)", "logs/: not written (typeflag 5)"],
  "v1-sparse": ["memory-ranges: pax.chksum", "memory-ranges: pax.records", "memory-ranges: pax.size"],
  "v1-windows-rich": ["order", "snapshot.json: body", "snapshot.json: chksum", "snapshot.json: size"],
};

const decimal = (octal = ""): number => Number.parseInt(octal.replace(/\0.*$/su, "") || "0", 8);

/** The anchor's export as the writer's inputs: its config, and every regular file with its mode, time and layout. */
async function partsOf(
  tar: Uint8Array,
): Promise<{ config: ReturnType<typeof readEnvelope>["config"]; files: SnapshotExportFile[]; mtime: Date }> {
  const stored = storedEntries(tar);
  const read = await readImport(tar);
  const envelope = stored.find((e) => e.header.name.startsWith("snapshot.json\0"));
  const files = read
    .filter((e) => e.typeflag === "0" && e.name !== "snapshot.json")
    .map((e, i): SnapshotExportFile => {
      const header = stored.filter((s) => s.header.typeflag === "0" && !s.header.name.startsWith("snapshot.json\0"))[i]?.header;
      const sparse = parseSparseRecords(e.name, e.pax, e.data.length);
      return {
        name: e.name,
        data: e.data,
        mode: e.mode,
        mtime: new Date(decimal(header?.mtime) * 1000),
        ...(sparse && { sparse }),
      };
    });
  return {
    config: readEnvelope(envelope?.body ?? new Uint8Array()).config,
    files,
    mtime: new Date(decimal(envelope?.header.mtime) * 1000),
  };
}

const cString = (field: string): string => field.replace(/\0.*$/su, "");
const nameOf = (e: StoredEntry): string => {
  const path = / path=(.*)\n/u.exec(e.pax?.records ?? "")?.[1];
  const prefix = cString(e.header.prefix);
  return path ?? (prefix === "" ? cString(e.header.name) : `${prefix}/${cString(e.header.name)}`);
};

/** Every field of every header (and PAX block) that differs between two exports, and whether the order of their entries does. */
function differences(ours: readonly StoredEntry[], theirs: readonly StoredEntry[]): string[] {
  const out: string[] = [];
  const mine = new Map(ours.map((e) => [nameOf(e), e]));
  const shared = theirs.map(nameOf).filter((n) => mine.has(n));
  if (ours.map(nameOf).join("/") !== shared.join("/")) out.push("order");
  for (const want of theirs) {
    const name = nameOf(want);
    const got = mine.get(name);
    if (got === undefined) {
      out.push(`${name}: not written (typeflag ${want.header.typeflag})`);
      continue;
    }
    for (const [field] of HEADER_FIELDS) {
      if (got.header[field] !== want.header[field]) out.push(`${name}: ${field}`);
      if (got.pax?.header[field] !== want.pax?.header[field]) out.push(`${name}: pax.${field}`);
    }
    if (got.pax?.records !== want.pax?.records) out.push(`${name}: pax.records`);
    if (!Buffer.from(got.body).equals(Buffer.from(want.body))) out.push(`${name}: body`);
  }
  return out.sort();
}

describe("createSnapshotExport, against the export tars of Go's vectors", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s: rebuilt from its parts, every header field is the anchor's, but the ones named", async (dir) => {
    const anchor = read("snapshot", dir, "export.tar");
    const { config, files, mtime } = await partsOf(anchor);
    const parts: Uint8Array[] = [];
    for await (const piece of createSnapshotExport(config, files, { mtime })) parts.push(piece);
    const ours = Buffer.concat(parts);
    const expected = EXPECTED_DIFFERENCES[dir] ?? [];
    expect(differences(storedEntries(ours), storedEntries(anchor))).toEqual(expected);
    if (expected.length === 0) expect(ours.equals(anchor)).toBe(true);
  });
});

// A push checks snapshot.json against SnapshotEnvelopeSchema before it uploads anything: every way
// it can be wrong is refused with an ExportFormatError naming the entry and the field, and the
// registry sees no call. (The same on a real registry, counted on the wire, in
// test/integration/snapshot-export-format.test.ts.)
import { describe, expect, it } from "vitest";
import { MemoryRegistry } from "../fakes.test-util.js";
import { envelopeEntry, pieces, tarEntry, TRAILER } from "../hostile-artifact.test-util.js";
import { pushSnapshot } from "../push/push.js";
import { SnapshotEnvelopeSchema, SnapshotExportConfigSchema } from "./envelope-schema.js";
import { type ExportFormatError, isExportFormatError } from "./export-format-error.js";

const MEMORY = tarEntry("memory-ranges", "memory bytes");

/** Pushes `snapshot.json` holding `json`, before and after a file; the error and the registry calls. */
async function push(json: string, envelopeFirst = true): Promise<{ error: ExportFormatError; calls: number }> {
  const reg = new MemoryRegistry();
  const envelope = tarEntry("snapshot.json", json);
  const tar = Buffer.concat(envelopeFirst ? [envelope, MEMORY, TRAILER] : [MEMORY, envelope, TRAILER]);
  const error = await pushSnapshot(pieces(tar), reg, { name: "vm", now: () => 0 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isExportFormatError(error)) throw new Error(`not an ExportFormatError: ${String(error)}`, { cause: error });
  return { error, calls: reg.calls.length };
}

const CONFIG = { id: "snap-1", name: "vm" };
const envelopeWith = (path: string, value: unknown): string => {
  const config: Record<string, unknown> = { ...CONFIG };
  const root: Record<string, unknown> = { version: 1, config };
  if (path.startsWith("config.")) config[path.slice("config.".length)] = value;
  else root[path] = value;
  return JSON.stringify(root);
};

/** A value of the wrong JSON type for each field of the format. */
const WRONG_TYPE: Readonly<Record<string, unknown>> = {
  version: "1",
  config: "snap-1",
  "config.id": 7,
  "config.name": ["vm"],
  "config.description": false,
  "config.image": 1,
  "config.image_digest": {},
  "config.image_type": 2,
  "config.image_blob_ids": ["sha256:a"],
  "config.hypervisor": true,
  "config.cpu": "2",
  "config.memory": 1.5,
  "config.storage": "20Gi",
  "config.nics": [1],
  "config.network": 3,
  "config.windows": "yes",
};

describe("push: snapshot.json, checked before any upload", () => {
  it("covers every field of the schema", () => {
    const fields = ["version", "config", ...Object.keys(SnapshotExportConfigSchema.shape).map((k) => `config.${k}`)];
    expect(Object.keys(WRONG_TYPE).sort()).toEqual(fields.sort());
    expect(Object.keys(SnapshotEnvelopeSchema.shape)).toEqual(["version", "config"]);
  });

  it.each(Object.entries(WRONG_TYPE))("refuses %s of the wrong type, naming it, with Go's text", async (field, value) => {
    for (const first of [true, false]) {
      const { error, calls } = await push(envelopeWith(field, value), first);
      expect([error.entry, error.field, calls]).toEqual(["snapshot.json", field, 0]);
      expect(error.message).toMatch(/^parse snapshot\.json: json: cannot unmarshal \w+ into Go struct field \w+\.[\w.]+ of type \w+$/u);
    }
  });

  it.each([
    ["not JSON", "{version: 1}", "", /^parse snapshot\.json: invalid JSON: /u],
    ["cut short", '{"version":1,"config":{"id"', "", /^parse snapshot\.json: unexpected EOF$/u],
    ["empty", "", "", /^parse snapshot\.json: EOF$/u],
    [
      "flat, without the envelope (Go: version 0, an empty config)",
      JSON.stringify({ id: "snap-1", name: "vm" }),
      "version",
      /^snapshot\.json: version must be 1 or more \(the envelope version\)$/u,
    ],
    ["version 0", JSON.stringify({ version: 0, config: CONFIG }), "version", /^snapshot\.json: version must be 1 or more/u],
    [
      "without an id",
      JSON.stringify({ version: 1, config: { name: "vm", cpu: 2 } }),
      "config.id",
      /^snapshot\.json: config\.id is required \(the snapshot id\)$/u,
    ],
    [
      "an empty id",
      JSON.stringify({ version: 1, config: { id: "", name: "vm" } }),
      "config.id",
      /^snapshot\.json: config\.id is required/u,
    ],
    ["a null config", JSON.stringify({ version: 1, config: null }), "config.id", /^snapshot\.json: config\.id is required/u],
    [
      "a negative cpu",
      JSON.stringify({ version: 1, config: { ...CONFIG, cpu: -2 } }),
      "config.cpu",
      /^snapshot\.json: config\.cpu must not be negative/u,
    ],
    [
      "a negative memory",
      JSON.stringify({ version: 1, config: { ...CONFIG, memory: -1 } }),
      "config.memory",
      /^snapshot\.json: config\.memory must not be negative \(bytes\)$/u,
    ],
    [
      "a memory past 2^53",
      `{"version":1,"config":{"id":"s","name":"vm","memory":9007199254740993}}`,
      "config.memory",
      /cannot unmarshal number/u,
    ],
  ])("refuses %s", async (_what, json, field, message) => {
    for (const first of [true, false]) {
      const { error, calls } = await push(json, first);
      expect([error.entry, error.field, calls]).toEqual(["snapshot.json", field, 0]);
      expect(error.message).toMatch(message);
    }
  });

  it("refuses a snapshot.json above 1 MiB without reading it", async () => {
    const json = `{"version":1,"config":{"id":"s","name":"vm","description":"${"x".repeat(1 << 20)}"}}`;
    const { error, calls } = await push(json);
    expect([error.entry, error.field, calls]).toEqual(["snapshot.json", "size", 0]);
    expect(error.message).toBe(`snapshot.json of ${json.length} bytes, more than 1048576`);
  });

  it("refuses an export without snapshot.json, uploading nothing", async () => {
    const reg = new MemoryRegistry();
    const error = await pushSnapshot(pieces(Buffer.concat([MEMORY, TRAILER])), reg, { name: "vm" }).catch((e: unknown) => e);
    expect(isExportFormatError(error) && [error.entry, error.field, error.message]).toEqual([
      "snapshot.json",
      "",
      "snapshot.json not found in export stream",
    ]);
    expect(reg.calls).toEqual([]);
  });

  it("takes what Go's decoder takes: keys in any case, unknown fields, null, trailing bytes after the value", async () => {
    const reg = new MemoryRegistry();
    const json = '{"Version":1,"CONFIG":{"ID":"snap-1","name":"vm","Cpu":2,"nics":null,"future":{"x":1}},"exported_by":"cocoon"}\ngarbage';
    const tar = Buffer.concat([tarEntry("snapshot.json", json), MEMORY, TRAILER]);
    await pushSnapshot(pieces(tar), reg, { name: "vm", now: () => 0 });
    const config = [...reg.blobs.values()].map((b) => Buffer.from(b).toString()).find((t) => t.startsWith('{"schemaVersion"'));
    expect(config).toBe(
      '{"schemaVersion":"v1","snapshotId":"snap-1","cpu":2,"files":{"memory-ranges":{"mode":416}},"createdAt":"1970-01-01T00:00:00Z"}',
    );
  });

  it("envelopeEntry, the smallest envelope the tests push, passes", async () => {
    const reg = new MemoryRegistry();
    await pushSnapshot(pieces(Buffer.concat([envelopeEntry(), TRAILER])), reg, { name: "vm", now: () => 0 });
    expect(reg.calls.map((c) => c.call)).toEqual(["HasBlob", "PutBlob", "PutManifest"]);
  });
});

import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../errors.js";
import { descriptorTitle, parseManifest } from "../../oci/manifest-types.js";
import { collector, MemoryRegistry } from "../fakes.test-util.js";
import { envelopeEntry, paxHeader, pieces, tarBlock, tarEntry, TRAILER } from "../hostile-artifact.test-util.js";
import { streamSnapshot } from "../pull/pull.js";
import { pushSnapshot } from "./push.js";
import { readImport } from "../snapshot-files.test-util.js";

const ENVELOPE = envelopeEntry();

async function push(tar: Buffer, reg = new MemoryRegistry(), piece?: number): Promise<{ error: unknown; reg: MemoryRegistry }> {
  const error = await pushSnapshot(pieces(tar, piece), reg, { name: "vm", now: () => 0 }).then(
    () => null,
    (e: unknown) => e,
  );
  return { error, reg };
}

function expectFormat(error: unknown, message: string): void {
  expect(isCocoonError(error, "ERR_SNAPSHOT_FORMAT")).toBe(true);
  expect((error as Error).message).toBe(message);
}

describe("push: export entry names", () => {
  it.each([
    ["..", 'it is ".."'],
    ["../../etc/shadow", 'it contains "/"'],
    ["/var/lib/cocoon/memory-ranges", "it is an absolute path"],
    ["vm/memory-ranges", 'it contains "/"'],
    ["memory\\ranges", "it contains a backslash"],
  ])("refuses %j (%s) before any upload", async (name, why) => {
    const { error, reg } = await push(Buffer.concat([tarEntry(name, "data"), ENVELOPE, TRAILER]));
    expectFormat(error, `export entry ${JSON.stringify(name)} is not a single file name: ${why}`);
    expect(reg.calls).toEqual([]);
  });

  it("refuses a bad name after the envelope before uploading it: only the file before it went up, and no manifest", async () => {
    const { error, reg } = await push(Buffer.concat([ENVELOPE, tarEntry("state.json", "{}"), tarEntry("../state.json", "evil"), TRAILER]));
    expectFormat(error, 'export entry "../state.json" is not a single file name: it contains "/"');
    expect(reg.calls.map((c) => `${c.call} ${c.size ?? ""}`)).toEqual(["HasBlob ", "PutBlob 2"]);
  });

  it.each([
    ["memory-ranges", [tarEntry("memory-ranges", "one"), ENVELOPE, tarEntry("memory-ranges", "two")]],
    ["snapshot.json", [ENVELOPE, tarEntry("config.json", "{}"), ENVELOPE]],
  ])("refuses %s twice", async (name, entries) => {
    const { error, reg } = await push(Buffer.concat([...entries, TRAILER]));
    expectFormat(error, `export entry "${name}" appears twice`);
    expect(reg.calls.filter((c) => c.call === "PutManifest")).toEqual([]);
  });
});

describe("push: tar types", () => {
  it("uploads a contiguous file (type 7) as a regular file, which pulls back byte for byte", async () => {
    const reg = new MemoryRegistry();
    const result = await pushSnapshot(pieces(Buffer.concat([ENVELOPE, tarEntry("memory-ranges", "contiguous bytes", "7"), TRAILER])), reg, {
      name: "vm",
      tag: "t",
      now: () => 0,
    });
    expect(result.layerCount).toBe(1);
    const sink = collector();
    await streamSnapshot(result.manifestBytes, reg, { name: "vm", output: sink.output, now: () => 0 });
    const entries = await readImport(sink.bytes());
    expect(entries.map((e) => [e.name, Buffer.from(e.data).toString()])).toEqual([
      ["snapshot.json", expect.any(String)],
      ["memory-ranges", "contiguous bytes"],
    ]);
  });

  it.each([
    ["S", 0, "GNU sparse"],
    ["S", 12, "GNU sparse"],
    ["M", 12, "GNU multi-volume continuation"],
    ["Z", 12, "a vendor type"],
  ])("refuses type %s with %i bytes (%s) instead of dropping its data", async (typeflag, size, _what) => {
    const { error, reg } = await push(Buffer.concat([tarEntry("memory-ranges", "x".repeat(size), typeflag), ENVELOPE, TRAILER]));
    expectFormat(error, `export entry "memory-ranges" has tar type "${typeflag}", whose data a snapshot cannot hold`);
    expect(reg.calls).toEqual([]);
  });

  it("refuses a GNU sparse file given as PAX records on a regular entry", async () => {
    const records = "22 GNU.sparse.major=1\n22 GNU.sparse.minor=0\n";
    const { error, reg } = await push(Buffer.concat([paxHeader(records), tarEntry("memory-ranges", "sparse-encoded"), ENVELOPE, TRAILER]));
    expectFormat(error, 'export entry "memory-ranges" is a GNU sparse file, whose data a snapshot cannot hold');
    expect(reg.calls).toEqual([]);
  });

  it("reads no body for a link or a directory whatever its size field says, as Go's reader does", async () => {
    // A directory header claiming 1024 bytes and a symlink claiming 100, with no body: the next header follows at once.
    const tar = Buffer.concat([
      ENVELOPE,
      tarBlock("logs", "5", 1024),
      tarBlock("current", "2", 100),
      tarEntry("state.json", "{}"),
      TRAILER,
    ]);
    const reg = new MemoryRegistry();
    const result = await pushSnapshot(pieces(tar), reg, { name: "vm", now: () => 0 });
    expect(result.layerCount).toBe(1);
    expect(parseManifest(result.manifestBytes).layers?.map(descriptorTitle)).toEqual(["state.json"]);
  });
});

describe("push: PAX headers", () => {
  it("refuses a PAX header above 1 MiB with Go's error, before reading it", async () => {
    const header = tarBlock("PaxHeaders.0/memory-ranges", "x", (1 << 20) + 1);
    const { error, reg } = await push(Buffer.concat([header, TRAILER]));
    expectFormat(error, "read tar entry: archive/tar: header field too long");
    expect(reg.calls).toEqual([]);
  });

  it("refuses a GNU long name above 1 MiB with Go's error", async () => {
    const { error } = await push(Buffer.concat([tarBlock("././@LongLink", "L", (1 << 20) + 1), TRAILER]));
    expectFormat(error, "read tar entry: archive/tar: header field too long");
  });

  it("parses a 1 MiB PAX header of 100 000 records, sent in 16-byte pieces, in linear time", { timeout: 20_000 }, async () => {
    const records = "10 k=vvvv\n".repeat(100_000) + "28 COCOON.note=the last one\n";
    const tar = Buffer.concat([paxHeader(records), tarEntry("state.json", "{}"), ENVELOPE, TRAILER]);
    const started = performance.now();
    const { error, reg } = await push(tar, new MemoryRegistry(), 16);
    expect(error).toBeNull();
    expect(reg.calls.map((c) => c.call)).toEqual(["HasBlob", "PutBlob", "HasBlob", "PutBlob", "PutManifest"]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("refuses a huge or malformed record length with Go's invalid header", async () => {
    for (const records of [
      `${"9".repeat(100_000)} k=v\n`,
      "99999999999999999999 k=v\n",
      "4 k=v\n",
      "-10 k=vvvvv\n",
      "10 kvvvvvv\n",
      "10 =vvvvvv\n",
      "12 path=a\0b\n",
    ]) {
      const { error, reg } = await push(Buffer.concat([paxHeader(records), tarEntry("state.json", "{}"), ENVELOPE, TRAILER]));
      expectFormat(error, "read tar entry: archive/tar: invalid tar header");
      expect(reg.calls).toEqual([]);
    }
  });
});

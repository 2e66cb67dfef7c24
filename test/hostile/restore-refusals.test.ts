import { describe, expect, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { isExportFormatError } from "../../src/snapshot/index.js";
import { fileEntry, padded, rawHeader, restoreTar, TRAILER } from "./support/restore-tar.js";

// The restore refuses what an import tar never holds, before the entry is written: every refusal is
// ERR_SNAPSHOT_FORMAT naming the entry and the field, and nothing lands outside the directory.

const config = fileEntry("config.json", '{"cpu":2}');

function expectRefused(err: unknown, entry: string, field: string, message: string): void {
  expect(isCocoonError(err, "ERR_SNAPSHOT_FORMAT")).toBe(true);
  if (!isExportFormatError(err)) throw new Error(`not an ExportFormatError: ${String(err)}`);
  expect([err.entry, err.field, err.message]).toEqual([entry, field, message]);
}

describe("restoreSnapshot refuses names that leave the directory", () => {
  it.each([
    ["..", "..", 'restore: entry "..": it is ".."'],
    ["a parent path", "../escaped", 'restore: entry "../escaped": it contains "/"'],
    ["a path through a directory", "sub/../../escaped", 'restore: entry "sub/../../escaped": it contains "/"'],
    ["an absolute path", "/tmp/escaped", 'restore: entry "/tmp/escaped": it is an absolute path'],
    ["a backslash", "..\\escaped", 'restore: entry "..\\\\escaped": it contains a backslash'],
    ["an empty name", "", 'restore: entry "": it is empty'],
  ])("%s", async (_what, name, message) => {
    const got = await restoreTar(Buffer.concat([config, fileEntry(name, "pwned"), TRAILER]));
    expectRefused(got.err, name, "name", message);
    expect(got.files).toEqual(["config.json"]);
    expect(got.parent).toEqual(["vm"]);
  });

  it("a PAX path that leaves the directory, whatever the USTAR name says", async () => {
    const got = await restoreTar(Buffer.concat([fileEntry("harmless", "pwned", { pax: { path: "../escaped" } }), TRAILER]));
    expectRefused(got.err, "../escaped", "name", 'restore: entry "../escaped": it contains "/"');
    expect([got.files, got.parent]).toEqual([[], ["vm"]]);
  });

  it("a GNU long name (L) that leaves the directory", async () => {
    const long = Buffer.from("../escaped\0");
    const tar = Buffer.concat([
      rawHeader({ name: "././@LongLink", typeflag: "L", size: long.length }),
      padded(long),
      fileEntry("x", "pwned"),
      TRAILER,
    ]);
    const got = await restoreTar(tar);
    expectRefused(got.err, "../escaped", "name", 'restore: entry "../escaped": it contains "/"');
    expect([got.files, got.parent]).toEqual([[], ["vm"]]);
  });

  it("a name of 256 bytes, past NAME_MAX (255 passes)", async () => {
    const got = await restoreTar(Buffer.concat([fileEntry("é".repeat(128), "x"), TRAILER]));
    expectRefused(got.err, "é".repeat(128), "name", `restore: entry "${"é".repeat(128)}": name of 256 bytes, more than 255`);
    const ok = await restoreTar(Buffer.concat([fileEntry(`${"é".repeat(127)}a`, "x"), TRAILER]));
    expect([ok.err, ok.files]).toEqual([undefined, [`${"é".repeat(127)}a`]]);
  });
});

describe("restoreSnapshot refuses links, devices, FIFOs and directories", () => {
  it.each([
    ["1", "a hard link", "/etc/passwd"],
    ["2", "a symbolic link", "/etc/passwd"],
    ["2", "a symbolic link", "config.json"],
    ["3", "a character device", ""],
    ["4", "a block device", ""],
    ["5", "a directory", ""],
    ["6", "a FIFO", ""],
    ["7", "a contiguous file", ""],
    ["S", "a GNU sparse file", ""],
  ])("type %s (%s → %j)", async (typeflag, kind, linkname) => {
    const got = await restoreTar(Buffer.concat([config, rawHeader({ name: "memory-ranges", typeflag, linkname }), TRAILER]));
    expectRefused(got.err, "memory-ranges", "typeflag", `restore: entry "memory-ranges" is ${kind}, not a regular file`);
    expect([got.files, got.parent]).toEqual([["config.json"], ["vm"]]);
  });
});

describe("restoreSnapshot refuses a name twice", () => {
  it("the second config.json is refused and the first kept as written", async () => {
    const got = await restoreTar(Buffer.concat([config, fileEntry("config.json", "second"), TRAILER]));
    expectRefused(got.err, "config.json", "name", 'restore: entry "config.json" appears twice');
    expect(got.files).toEqual(["config.json"]);
  });
});

describe("restoreSnapshot refuses a damaged tar", () => {
  it("a header whose checksum is wrong by one", async () => {
    const got = await restoreTar(
      Buffer.concat([config, rawHeader({ name: "state.json", size: 2, checksumSkew: 1 }), padded("{}"), TRAILER]),
    );
    expectRefused(got.err, 'the entry after "config.json"', "", 'restore: the entry after "config.json": archive/tar: invalid tar header');
    expect(got.files).toEqual(["config.json"]);
  });

  it("a tar with no trailer", async () => {
    const got = await restoreTar(config);
    expectRefused(
      got.err,
      'the entry after "config.json"',
      "",
      'restore: the tar ends at the entry after "config.json" without its two zero blocks',
    );
  });

  it("a tar with one zero block of its two", async () => {
    const got = await restoreTar(Buffer.concat([config, TRAILER.subarray(0, 512)]));
    expectRefused(
      got.err,
      'the entry after "config.json"',
      "",
      'restore: the tar ends at the entry after "config.json" without its two zero blocks',
    );
  });

  it("a second trailer block that is not zero", async () => {
    const got = await restoreTar(Buffer.concat([config, TRAILER.subarray(0, 512), rawHeader({ name: "late" })]));
    expectRefused(got.err, 'the entry after "config.json"', "", 'restore: the entry after "config.json": archive/tar: invalid tar header');
  });

  it("a body shorter than its header says", async () => {
    const got = await restoreTar(Buffer.concat([config, rawHeader({ name: "state.json", size: 4096 }), Buffer.alloc(1000, 1)]));
    expectRefused(got.err, '"state.json"', "", 'restore: "state.json": unexpected EOF');
  });

  it("a header cut short", async () => {
    const got = await restoreTar(Buffer.concat([config, rawHeader({ name: "state.json" }).subarray(0, 300)]));
    expectRefused(got.err, 'the entry after "config.json"', "", 'restore: the entry after "config.json": unexpected EOF');
  });

  it("a PAX block past 1 MiB, before a byte of it is kept", async () => {
    const tar = Buffer.concat([rawHeader({ name: "PaxHeaders.0/x", typeflag: "x", size: 2 ** 20 + 1 }), Buffer.alloc(512)]);
    const got = await restoreTar(tar);
    expectRefused(got.err, "the first entry", "", "restore: the first entry: archive/tar: header field too long");
  });

  it("a sparse map whose lengths do not sum to the body", async () => {
    const pax = { "COCOON.sparse.map": '[{"o":0,"l":4096}]', "COCOON.sparse.size": "8192" };
    const got = await restoreTar(Buffer.concat([fileEntry("memory-ranges", Buffer.alloc(100), { pax }), TRAILER]));
    expectRefused(
      got.err,
      "memory-ranges",
      "COCOON.sparse.map",
      "sparse entry memory-ranges has a malformed COCOON.sparse.map: sparse map holds more than the 100 stored bytes",
    );
    expect(got.files).toEqual([]);
  });
});

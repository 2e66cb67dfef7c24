import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ByteReader, UNEXPECTED_EOF } from "./byte-reader.js";
import { readExportFile } from "./export-file.js";

const dir = mkdtempSync(path.join(tmpdir(), "byte-reader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const file = path.join(dir, "bytes");
writeFileSync(file, bytes);

/** The same bytes as a stream of pieces and as a file read positionally. */
const sources = [
  [
    "a stream of 7-byte pieces",
    () =>
      (async function* () {
        for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
      })(),
  ],
  ["an export file", () => readExportFile(file)],
] as const;

describe.each(sources)("ByteReader over %s", (_, source) => {
  it("reads a header, then an entry body straight into a buffer, then the rest in pieces", async () => {
    const reader = new ByteReader(source());
    expect(Buffer.from((await reader.readExact(10)) ?? []).equals(bytes.subarray(0, 10))).toBe(true);
    const body = reader.body(600);
    const out = Buffer.alloc(500);
    await body.readInto(out);
    expect(out.equals(bytes.subarray(10, 510))).toBe(true);
    expect(body.left).toBe(100);
    const rest: Uint8Array[] = [];
    for await (const piece of body) rest.push(piece);
    expect(Buffer.concat(rest).equals(bytes.subarray(510, 610))).toBe(true);
    expect(body.left).toBe(0);
    await reader.skip(390);
    expect(await reader.readExact(1)).toBeNull();
    await reader.close();
  });

  it("fails a read past the end with Go's unexpected EOF, and a body read past its own length too", async () => {
    const reader = new ByteReader(source());
    await reader.skip(900);
    await expect(reader.readInto(Buffer.alloc(101))).rejects.toThrow(UNEXPECTED_EOF);
    await reader.close();
    const again = new ByteReader(source());
    await expect(again.body(10).readInto(Buffer.alloc(11))).rejects.toThrow(UNEXPECTED_EOF);
    await again.close();
  });
});

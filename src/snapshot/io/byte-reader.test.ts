import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ByteReader } from "./byte-reader.js";
import { UNEXPECTED_EOF } from "./stream-refusal.js";
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

describe("EntryBody.region", () => {
  it("reads an export file's region where it lies, the buffered head from memory, in any order", async () => {
    const reader = new ByteReader(readExportFile(file));
    await reader.readExact(10); // buffers the rest of the file's first piece
    const body = reader.body(900);
    const region = body.region(800);
    expect(region).toBeDefined();
    expect(body.left).toBe(100);
    const late = Buffer.alloc(300);
    const early = Buffer.alloc(300);
    expect(await region?.(late, 500)).toBe(300);
    expect(await region?.(early, 0)).toBe(300);
    expect(late.equals(bytes.subarray(510, 810))).toBe(true);
    expect(early.equals(bytes.subarray(10, 310))).toBe(true);
    const rest: Uint8Array[] = [];
    for await (const piece of body) rest.push(piece);
    expect(Buffer.concat(rest).equals(bytes.subarray(810, 910))).toBe(true);
    await reader.close();
  });

  it("reads short past the end of the file, and is not offered on a stream or past the body", async () => {
    const reader = new ByteReader(readExportFile(file));
    await reader.readExact(990);
    const region = reader.body(10).region(10);
    expect(region).toBeDefined();
    const out = Buffer.alloc(20);
    expect(await region?.(out, 0)).toBe(10);
    await reader.close();
    const stream = new ByteReader(sources[0][1]());
    expect(stream.body(100).region(50)).toBeUndefined();
    await stream.close();
    const small = new ByteReader(readExportFile(file));
    expect(small.body(10).region(11)).toBeUndefined();
    await small.close();
  });
});

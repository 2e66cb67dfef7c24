import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryLike } from "./export-tar.test-util.js";
import { EXPORT_READ_SIZE, readExportFile } from "./export-file.js";

const dir = mkdtempSync(path.join(tmpdir(), "export-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readExportFile", () => {
  it("reads the file's bytes in pieces of 4 MiB", async () => {
    const data = memoryLike(9 << 20, "e");
    const file = path.join(dir, "export.tar");
    writeFileSync(file, data);
    const pieces: Buffer[] = [];
    for await (const piece of readExportFile(file)) pieces.push(piece as Buffer);
    expect(EXPORT_READ_SIZE).toBe(4 << 20);
    expect(pieces.map((p) => p.length)).toEqual([4 << 20, 4 << 20, 1 << 20]);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
  });
});

import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryLike } from "../snapshot-files.test-util.js";
import { readFully } from "./positional-read.js";

const dir = mkdtempSync(path.join(tmpdir(), "positional-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readFully", () => {
  const data = memoryLike(3 << 20, "r");
  const file = path.join(dir, "data");
  writeFileSync(file, data);

  it("reads the bytes at a position into the start of the buffer, fewer where the file ends", async () => {
    const fd = openSync(file, "r");
    try {
      const out = Buffer.alloc(2 << 20);
      expect(await readFully(fd, out, 2 << 20, 12345)).toBe(2 << 20);
      expect(out.equals(data.subarray(12345, 12345 + (2 << 20)))).toBe(true);
      out.fill(0);
      expect(await readFully(fd, out, 2 << 20, (2 << 20) + 7)).toBe((1 << 20) - 7);
      expect(out.subarray(0, (1 << 20) - 7).equals(data.subarray((2 << 20) + 7))).toBe(true);
      expect(await readFully(fd, out, 0, 0)).toBe(0);
      expect(await readFully(fd, out, 10, 3 << 20)).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("rejects with the read's own error", async () => {
    const fd = openSync(file, "r");
    closeSync(fd);
    const err = (await readFully(fd, Buffer.alloc(4), 4, 0).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(err.code).toBe("EBADF");
  });
});

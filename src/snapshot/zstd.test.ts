import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memoryLike } from "./export-tar.test-util.js";
import { ANCHORS, HAVE_ANCHORS, NO_ANCHORS } from "./fakes.test-util.js";
import { compressFrame, decodeChunk, readFrameHeader, StreamDecoder, ZstdMessage } from "./zstd.js";

describe("zstd frames", () => {
  it.each([1, 1 << 20, 3 * (1 << 20) + 7])(
    "one frame per chunk declares its content size (%i bytes) and a window Go's per-chunk cap accepts",
    async (size) => {
      const data = memoryLike(size, "z");
      const frame = await compressFrame(data, 3);
      const header = readFrameHeader(frame);
      expect(header?.contentSize).toBe(size);
      expect(header?.windowSize).toBeLessThanOrEqual(Math.max(size, 1024));
      expect(Buffer.from(await decodeChunk(frame, size)).equals(data)).toBe(true);
    },
  );

  it("refuses what Go's windowed pull refuses, with Go's texts", async () => {
    const frame = await compressFrame(memoryLike(1 << 20, "z"), 3);
    await expect(decodeChunk(frame, (1 << 20) - 1)).rejects.toThrow(ZstdMessage.Window);
    await expect(decodeChunk(Buffer.from("not zstd at all"), 1 << 20)).rejects.toThrow(ZstdMessage.Magic);
  });

  it("streams concatenated frames back, and refuses a wrong magic number", async () => {
    const a = memoryLike(100_000, "a");
    const b = memoryLike(50_000, "b");
    const both = Buffer.concat([await compressFrame(a, 3), await compressFrame(b, 3)]);
    const dec = new StreamDecoder();
    const out = [...dec.push(both.subarray(0, 1000)), ...dec.push(both.subarray(1000)), ...dec.push(new Uint8Array(0), true)];
    expect(Buffer.concat(out).equals(Buffer.concat([a, b]))).toBe(true);
    expect(() => new StreamDecoder().push(Buffer.from("garbage!"))).toThrow(ZstdMessage.Magic);
  });
});

describe.skipIf(!HAVE_ANCHORS)(`Go's zstd blobs (${HAVE_ANCHORS ? "anchors present" : NO_ANCHORS})`, () => {
  it.each(["v2-zstd", "v2-zstd-chunked"])("%s: every +zstd blob decodes to Go's blobs-decoded bytes", async (dir) => {
    const decoded = path.join(ANCHORS, "snapshot", dir, "blobs-decoded");
    const names = readdirSync(decoded).filter((f) => f.startsWith("sha256-"));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const want = readFileSync(path.join(decoded, name));
      const blob = readFileSync(path.join(ANCHORS, "snapshot", dir, "blobs", name));
      const dec = new StreamDecoder();
      const got = Buffer.concat([...dec.push(blob), ...dec.push(new Uint8Array(0), true)]);
      expect(got.equals(want)).toBe(true);
      if (readFrameHeader(blob)?.contentSize !== undefined)
        expect(Buffer.from(await decodeChunk(blob, want.length)).equals(want)).toBe(true);
    }
  });
});

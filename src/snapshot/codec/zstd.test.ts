import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { memoryLike } from "../snapshot-files.test-util.js";
import { goVectorNames, readGoVector } from "../../internal/go-vectors.test-util.js";
import { nodeZstd } from "./node-zstd.js";
import { randomBytes } from "node:crypto";
import { decodeChunk, decodeChunkPieces } from "./zstd-decode.js";
import { decodeStream } from "./zstd-stream.js";
import { compressBound, compressFrame, compressRead, FRAME_PIECE } from "./zstd-encode.js";
import { ZstdMessage } from "./zstd-errors.js";
import { readFrameHeader } from "./zstd-header.js";
import { unpledged } from "./unpledged.test-util.js";

async function decodeAll(...pieces: Uint8Array[]): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const c of decodeStream(Readable.from(pieces))) out.push(c);
  return Buffer.concat(out);
}

describe("decodeChunkPieces", () => {
  it("decodes a frame above 4 MiB into pieces of at most 4 MiB that join to the input", async () => {
    const data = memoryLike((9 << 20) + 5, "p");
    const pieces = await decodeChunkPieces(await compressFrame(data, 3), data.length);
    expect(pieces.length).toBe(3);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4 << 20);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
  });

  it("keeps Go's texts for a damaged or oversized frame above 4 MiB", async () => {
    const data = memoryLike(5 << 20, "q");
    const frame = Buffer.from(await compressFrame(data, 3));
    await expect(decodeChunkPieces(frame, data.length - 1)).rejects.toThrow(ZstdMessage.TooLarge);
    const cut = frame.subarray(0, frame.length - 100);
    await expect(decodeChunkPieces(cut, data.length)).rejects.toThrow();
  });
});

describe("compressBound", () => {
  it("is zstd's ZSTD_COMPRESSBOUND", () => {
    expect(compressBound(64 << 20)).toBe(67_371_008);
    expect(compressBound(0)).toBe(64);
    expect(compressBound(1000)).toBe(1000 + 3 + 63);
    expect(compressBound(128 << 10)).toBe(131_584);
  });
});

describe("zstd frames", () => {
  it("compresses incompressible bytes within the bound, as one view of the buffer zstd wrote, the same bytes as the one-shot call", async () => {
    const data = randomBytes(3 << 20);
    const frame = await compressFrame(data, 3);
    expect(frame.length).toBeLessThanOrEqual(compressBound(data.length));
    expect(frame.buffer.byteLength).toBe(compressBound(data.length));
    const oneShot = await new Promise<Buffer>((resolve, reject) => {
      nodeZstd().zstdCompress(
        data,
        { pledgedSrcSize: data.length, params: { [nodeZstd().constants.ZSTD_c_compressionLevel]: 3 } },
        (err, out) => (err ? reject(err) : resolve(out)),
      );
    });
    expect(Buffer.from(frame).equals(oneShot)).toBe(true);
    expect((await decodeAll(frame)).equals(data)).toBe(true);
  });

  it("writes the same frame when it outgrows the expected size: two buffers, joined", async () => {
    const data = memoryLike(3 << 20, "g");
    const whole = Buffer.from(await compressFrame(data, 3));
    const spilled = await compressFrame(data, 3, 4096);
    expect(whole.length).toBeGreaterThan(4096);
    expect(spilled.buffer.byteLength).toBe(whole.length); // joined into one new buffer
    expect(Buffer.from(spilled).equals(whole)).toBe(true);
    const fitted = await compressFrame(data, 3, 1 << 20);
    expect(fitted.buffer.byteLength).toBe(1 << 20);
    expect(Buffer.from(fitted).equals(whole)).toBe(true);
  });

  it("writes the same frame from positional reads as from a buffer, in 4 MiB pieces", async () => {
    const data = memoryLike(2 * FRAME_PIECE + 12345, "r");
    const reads: [number, number][] = [];
    const read = (out: Uint8Array, offset: number): Promise<number> => {
      reads.push([offset, out.length]);
      out.set(data.subarray(offset, offset + out.length));
      return Promise.resolve(out.length);
    };
    const pieces = [new Uint8Array(FRAME_PIECE), new Uint8Array(FRAME_PIECE)] as const;
    const fromReads = Buffer.from(await compressRead(read, data.length, 3, Number.POSITIVE_INFINITY, pieces));
    expect(reads).toEqual([
      [0, FRAME_PIECE],
      [FRAME_PIECE, FRAME_PIECE],
      [2 * FRAME_PIECE, 12345],
    ]);
    expect(fromReads.equals(Buffer.from(await compressFrame(data, 3)))).toBe(true);
    expect((await decodeAll(fromReads)).equals(data)).toBe(true);
  });

  it("fails a short positional read with Go's unexpected EOF, and passes a read's own failure through", async () => {
    const pieces = [new Uint8Array(FRAME_PIECE), new Uint8Array(FRAME_PIECE)] as const;
    const short = (out: Uint8Array): Promise<number> => Promise.resolve(out.length - 1);
    await expect(compressRead(short, 1000, 3, Number.POSITIVE_INFINITY, pieces)).rejects.toThrow("unexpected EOF");
    const failing = (): Promise<number> => Promise.reject(new Error("EIO: i/o error, read"));
    await expect(compressRead(failing, FRAME_PIECE + 1, 3, Number.POSITIVE_INFINITY, pieces)).rejects.toThrow("EIO: i/o error, read");
  });

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

  it.each([
    // size, frame header descriptor, window descriptor (none when single-segment), 4-byte content size
    [1 << 20, "a0", "", "00001000"],
    [(1 << 20) + (1 << 19), "a0", "", "00001800"],
    [3 * (1 << 20) + 7, "80", "58", "07003000"],
    [64 << 20, "80", "58", "00000004"],
  ])("the header of a %i-byte chunk is exactly Go-acceptable: FHD %s, window %s, content size %s", async (size, fhd, wd, fcs) => {
    const frame = Buffer.from(await compressFrame(Buffer.alloc(size, 7), 3));
    expect(frame.subarray(0, 4).toString("hex")).toBe("28b52ffd");
    expect(frame.subarray(4, 4 + 1 + wd.length / 2 + 4).toString("hex")).toBe(fhd + wd + fcs);
  });

  it("refuses what Go's windowed pull refuses, with Go's texts", async () => {
    const frame = await compressFrame(memoryLike(1 << 20, "z"), 3);
    // A single-segment frame's window is its declared content size: klauspost reports the size, not the window.
    await expect(decodeChunk(frame, (1 << 20) - 1)).rejects.toThrow(ZstdMessage.TooLarge);
    await expect(decodeChunk(Buffer.from("not zstd at all"), 1 << 20)).rejects.toThrow(ZstdMessage.Magic);
    await expect(decodeChunk(frame, (1 << 20) + 1)).resolves.toHaveLength(1 << 20);
    // A second frame may not widen the window past the cap (zstd's windowLogMax), nor the output.
    const small = memoryLike(1024, "s");
    const wide = Buffer.concat([await compressFrame(small, 3), await unpledged(memoryLike(100_000, "w"))]);
    expect(readFrameHeader(wide)).toEqual({ windowSize: 1024, contentSize: 1024 });
    await expect(decodeChunk(wide, 1 << 20)).rejects.toThrow(ZstdMessage.Window);
    const half = await compressFrame(memoryLike(100_000, "l"), 3);
    const long = Buffer.concat([half, half]);
    await expect(decodeChunk(long, 150_000)).rejects.toThrow(ZstdMessage.TooLarge);
    await expect(decodeChunk(long, 200_000)).resolves.toHaveLength(200_000);
  });

  it("streams concatenated frames back, and refuses a wrong magic number", async () => {
    const a = memoryLike(100_000, "a");
    const b = memoryLike(50_000, "b");
    const both = Buffer.concat([await compressFrame(a, 3), await compressFrame(b, 3)]);
    expect((await decodeAll(both.subarray(0, 2), both.subarray(2, 1000), both.subarray(1000))).equals(Buffer.concat([a, b]))).toBe(true);
    await expect(decodeAll(Buffer.from("garbage!"))).rejects.toThrow(ZstdMessage.Magic);
  });
});

describe("Go's zstd blobs", () => {
  it.each([
    ["v2-zstd", 1],
    ["v2-zstd-chunked", 3],
  ])("%s: each of its %i +zstd blobs decodes to Go's blobs-decoded bytes", async (dir, count) => {
    const decoded = `registry/snapshot/${dir}/blobs-decoded`;
    const names = goVectorNames(decoded).filter((f) => f.startsWith("sha256-"));
    expect(names.length).toBe(count);
    for (const name of names) {
      const want = readGoVector(`${decoded}/${name}`);
      const blob = readGoVector(`registry/snapshot/${dir}/blobs/${name}`);
      const got = await decodeAll(blob);
      expect(got.equals(want)).toBe(true);
      if (readFrameHeader(blob)?.contentSize !== undefined)
        expect(Buffer.from(await decodeChunk(blob, want.length)).equals(want)).toBe(true);
    }
  });
});

describe("zstd frame boundaries", () => {
  const pieces = (data: Uint8Array, size: number): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
    return out;
  };
  const skippable = Buffer.concat([Buffer.from([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0]), Buffer.from("abc")]);

  it("decodes every frame of a stream (Node 22's decoder stops after the first), in any cut", async () => {
    const a = memoryLike(300_000, "a");
    const b = Buffer.alloc(200_000); // all zero: RLE blocks
    const c = memoryLike(1000, "c");
    const stream = Buffer.concat([skippable, await compressFrame(a, 3), await unpledged(b), skippable, await compressFrame(c, 19)]);
    const want = Buffer.concat([a, b, c]);
    for (const size of [1, 3, 4096, stream.length]) expect((await decodeAll(...pieces(stream, size))).equals(want)).toBe(true);
    await expect(decodeChunk(stream, want.length)).rejects.toThrow(ZstdMessage.Window); // the unpledged frame's 2 MiB window
    const chunk = Buffer.concat([skippable, await compressFrame(a, 3), await compressFrame(b, 3), skippable, await compressFrame(c, 19)]);
    expect(Buffer.from(await decodeChunk(chunk, want.length)).equals(want)).toBe(true);
    await expect(decodeChunk(chunk, want.length - 1)).rejects.toThrow(ZstdMessage.TooLarge);
  });

  it("refuses a stream that stops inside a frame, and garbage after a frame", async () => {
    const frame = await compressFrame(memoryLike(10_000, "t"), 3);
    await expect(decodeAll(frame.subarray(0, frame.length - 1))).rejects.toThrow("unexpected EOF");
    await expect(decodeAll(frame, Buffer.from("garbage!"))).rejects.toThrow(ZstdMessage.Magic);
    await expect(decodeChunk(Buffer.concat([frame, Buffer.from("garbage!")]), 1 << 20)).rejects.toThrow(ZstdMessage.Magic);
  });
});

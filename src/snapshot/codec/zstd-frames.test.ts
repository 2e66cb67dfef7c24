import { constants, zstdCompressSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryLike } from "../snapshot-files.test-util.js";
import { FRAME_END, FrameSplitter, framesOf } from "./zstd-frames.js";

/** The frames of `data` as the stream splitter cuts them: their offsets, or the error it ends with. */
function splitterCut(data: Uint8Array): [number, number][] | string {
  const splitter = new FrameSplitter();
  const cut: [number, number][] = [];
  try {
    for (const piece of splitter.split(data)) if (piece === FRAME_END) cut.push([splitter.lastFrame.start, splitter.lastFrame.end]);
  } catch (err) {
    return (err as Error).message;
  }
  return splitter.atBoundary ? cut : "unexpected EOF";
}

/** {@link framesOf}'s answer in the same terms. */
function walkerCut(data: Uint8Array): [number, number][] | string {
  try {
    return framesOf(data).map((f) => [f.byteOffset - data.byteOffset, f.byteOffset - data.byteOffset + f.length]);
  } catch (err) {
    return (err as Error).message;
  }
}

/** A frame of `data`, with or without its content size and checksum. */
function frame(data: Uint8Array, checksum: boolean, pledged: boolean): Buffer {
  const params = { [constants.ZSTD_c_checksumFlag]: checksum ? 1 : 0, [constants.ZSTD_c_contentSizeFlag]: pledged ? 1 : 0 };
  return zstdCompressSync(data, { params });
}

function skippable(n: number): Buffer {
  const out = Buffer.alloc(8 + n, 0x5a);
  out.writeUInt32LE(0x184d2a5e, 0);
  out.writeUInt32LE(n, 4);
  return out;
}

/** Frames of every block kind: compressed (guest-like pages), raw (random bytes), RLE (one byte repeated), and empty. */
const FRAMES = [
  frame(memoryLike(300_000, "frames"), true, true),
  frame(Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)), false, true),
  frame(Buffer.alloc(200_000, 7), true, false),
  frame(Buffer.alloc(0), false, true),
  frame(Buffer.from("a"), true, true),
];

describe("framesOf", () => {
  it("cuts a buffer where the stream splitter cuts it, for any run of frames, truncation or damaged byte", () => {
    const piece = fc.oneof(
      fc.integer({ min: 0, max: FRAMES.length - 1 }).map((i) => FRAMES[i] as Buffer),
      fc.integer({ min: 0, max: 40 }).map(skippable),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 5 }),
        fc.nat(),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }))),
        (pieces, cut, flip) => {
          const whole = Buffer.concat(pieces);
          const data = Buffer.from(whole.subarray(0, whole.length === 0 ? 0 : cut % (whole.length + 1)));
          if (flip !== null && data.length > 0) {
            const at = flip[0] % data.length;
            data[at] = (data[at] as number) ^ flip[1];
          }
          expect(walkerCut(data)).toEqual(splitterCut(data));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("gives each frame as a view of the buffer, skippable frames left out", () => {
    const [a, b] = [FRAMES[0] as Buffer, FRAMES[2] as Buffer];
    const data = Buffer.concat([skippable(3), a, skippable(0), b]);
    const frames = framesOf(data);
    expect(frames.map((f) => [f.buffer === data.buffer, f.byteOffset - data.byteOffset, f.length])).toEqual([
      [true, 11, a.length],
      [true, 11 + a.length + 8, b.length],
    ]);
  });

  it("refuses bytes that start no frame, and a buffer that ends inside one, with Go's texts", () => {
    expect(() => framesOf(Buffer.from("not zstd"))).toThrow("invalid input: magic number mismatch");
    const a = FRAMES[0] as Buffer;
    expect(() => framesOf(a.subarray(0, a.length - 1))).toThrow("unexpected EOF");
    expect(() => framesOf(skippable(10).subarray(0, 12))).toThrow("unexpected EOF");
    expect(framesOf(new Uint8Array(0))).toEqual([]);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { memoryLike } from "../snapshot-files.test-util.js";
import { decodeChunkPieces } from "./zstd-decode.js";
import { compressFrame } from "./zstd-encode.js";
import { ZstdMessage } from "./zstd-errors.js";
import { frameHeaderFields } from "./zstd-header.js";
import { canDecodeInto, decodeFrameInto, judgeDecodeInto } from "./zstd-into.js";
import { unpledged } from "./unpledged.test-util.js";

const SENTINEL = 0xa5;

/** A buffer of `size` bytes filled with {@link SENTINEL}, so bytes written past a range show. */
const marked = (size: number): Buffer => Buffer.allocUnsafeSlow(size).fill(SENTINEL);

/** `frame` with its 4-byte content size field rewritten to `declared` (a single-segment frame of 64 KiB to 4 GiB). */
function redeclared(frame: Uint8Array, declared: number): Buffer {
  const copy = Buffer.from(frame);
  const fhd = copy[4] as number;
  expect({ fcsFlag: fhd >> 6, singleSegment: (fhd >> 5) & 1, dictFlag: fhd & 3 }).toEqual({ fcsFlag: 2, singleSegment: 1, dictFlag: 0 });
  copy.writeUInt32LE(declared, 5);
  expect(frameHeaderFields(copy)?.contentSize).toBe(declared);
  return copy;
}

describe("decodeFrameInto", () => {
  it("is available on every supported Node", () => {
    expect(canDecodeInto()).toBe(true);
  });

  it("decodes a frame into the caller's buffer and says how many bytes it wrote", async () => {
    const data = memoryLike((5 << 20) + 3, "into");
    const out = marked(data.length + 1);
    await expect(decodeFrameInto(await compressFrame(data, 3), out, 27)).resolves.toBe(data.length);
    expect(out.subarray(0, data.length).equals(data)).toBe(true);
    expect(out[data.length]).toBe(SENTINEL);
  });

  it("refuses a frame that produces more than the room given, writing nothing past it", async () => {
    const data = memoryLike(1 << 20, "over");
    const out = marked(1 << 20);
    await expect(decodeFrameInto(await compressFrame(data, 3), out.subarray(0, 1000), 27)).rejects.toThrow(ZstdMessage.TooLarge);
    expect(out.subarray(0, 1000).equals(data.subarray(0, 1000))).toBe(true);
    expect(out.subarray(1000).every((b) => b === SENTINEL)).toBe(true);
  });

  it("fails with zstd's error for a window above the limit and for a damaged frame", async () => {
    const data = memoryLike(1 << 20, "win");
    // A window declared as one: a single-segment frame has none to refuse.
    const windowed = await unpledged(data);
    const windowLog = Math.log2(frameHeaderFields(windowed)?.windowSize ?? 0);
    expect(frameHeaderFields(windowed)?.singleSegment).toBe(false);
    await expect(decodeFrameInto(windowed, marked((1 << 20) + 1), windowLog - 1)).rejects.toMatchObject({
      code: "ZSTD_error_frameParameter_windowTooLarge",
    });
    await expect(decodeFrameInto(windowed, marked((1 << 20) + 1), windowLog)).resolves.toBe(1 << 20);
    const damaged = Buffer.from(await compressFrame(data, 3));
    damaged[9] = (damaged[9] as number) | 0b110; // the first block's type: reserved
    await expect(decodeFrameInto(damaged, marked((1 << 20) + 1), 27)).rejects.toMatchObject({
      code: "ZSTD_error_corruption_detected",
      message: "Data corruption detected",
    });
  });
});

describe("decodeChunkPieces into a buffer of the caller's", () => {
  it("decodes every frame of a chunk, one after another, into that buffer as its one piece", async () => {
    const a = memoryLike((2 << 20) + 11, "a");
    const b = memoryLike(70_000, "b");
    const chunk = Buffer.concat([await compressFrame(a, 3), await compressFrame(b, 3)]);
    const cap = a.length + b.length;
    const into = marked(cap + 1);
    const pieces = await decodeChunkPieces(chunk, cap, into);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]?.buffer).toBe(into.buffer);
    expect(Buffer.from(pieces[0] as Uint8Array).equals(Buffer.concat([a, b]))).toBe(true);
    expect(into[cap]).toBe(SENTINEL);
  });

  it("keeps Go's texts: a chunk above the cap, and a window above it", async () => {
    const data = memoryLike(1 << 20, "cap");
    const frame = await compressFrame(data, 3);
    await expect(decodeChunkPieces(frame, data.length - 1, marked(data.length + 1))).rejects.toThrow(ZstdMessage.TooLarge);
    await expect(decodeChunkPieces(Buffer.from("not zstd at all"), 1 << 20, marked((1 << 20) + 1))).rejects.toThrow(ZstdMessage.Magic);
  });

  it("refuses a frame that declares fewer bytes than it holds, and one that declares more", async () => {
    const data = memoryLike(200_000, "lie");
    const frame = await compressFrame(data, 3);
    const short = redeclared(frame, data.length - 1);
    const into = marked(data.length + 2);
    await expect(decodeChunkPieces(short, data.length, into)).rejects.toThrow();
    expect(into[data.length]).toBe(SENTINEL);
    const long = redeclared(frame, data.length + 1);
    await expect(decodeChunkPieces(long, data.length + 1, marked(data.length + 2))).rejects.toThrow();
  });

  it("decodes a frame without a declared size into pieces of Node's, leaving the buffer alone", async () => {
    const data = memoryLike(300_000, "nosize");
    const frame = await unpledged(data);
    const cap = 2 << 20; // the frame's window
    const into = marked(cap + 1);
    const pieces = await decodeChunkPieces(frame, cap, into);
    expect(pieces.some((p) => p.buffer === into.buffer)).toBe(false);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    expect(into.every((b) => b === SENTINEL)).toBe(true);
  });
});

const noWrite = (): void => undefined;

describe("canDecodeInto, on a stream without the private shape", () => {
  afterEach(() => {
    judgeDecodeInto(undefined);
  });

  it.each([
    ["no handle", { _handle: null, _writeState: new Uint32Array(2), _finishFlushFlag: 4 }],
    ["a handle without write", { _handle: {}, _writeState: new Uint32Array(2), _finishFlushFlag: 4 }],
    ["write state as an array", { _handle: { write: noWrite }, _writeState: [0, 0], _finishFlushFlag: 4 }],
    ["an empty write state", { _handle: { write: noWrite }, _writeState: new Uint32Array(0), _finishFlushFlag: 4 }],
    ["no finish flag", { _handle: { write: noWrite }, _writeState: new Uint32Array(2) }],
    ["nothing at all", null],
  ])("says no for %s, and says yes again once Node's stream is probed", (_name, probe) => {
    judgeDecodeInto(probe);
    expect(canDecodeInto()).toBe(false);
    judgeDecodeInto(undefined);
    expect(canDecodeInto()).toBe(true);
  });

  it("decodes a chunk through Node's public calls, to the same bytes, leaving the caller's buffer alone", async () => {
    const a = memoryLike((5 << 20) + 7, "pa");
    const b = memoryLike(90_000, "pb");
    const chunk = Buffer.concat([await compressFrame(a, 3), await compressFrame(b, 3)]);
    const cap = a.length + b.length;
    const adapted = await decodeChunkPieces(chunk, cap, marked(cap + 1));
    judgeDecodeInto({ _handle: null });
    const into = marked(cap + 1);
    const pieces = await decodeChunkPieces(chunk, cap, into);
    expect(pieces.some((p) => p.buffer === into.buffer)).toBe(false);
    expect(into.every((byte) => byte === SENTINEL)).toBe(true);
    expect(pieces.map((p) => p.length)).toEqual([4 << 20, a.length - (4 << 20), b.length]);
    expect(Buffer.concat(pieces).equals(Buffer.from(adapted[0] as Uint8Array))).toBe(true);
    expect(Buffer.concat(pieces).equals(Buffer.concat([a, b]))).toBe(true);
  });

  it("keeps Go's text for a chunk above the cap on the public path", async () => {
    judgeDecodeInto({});
    const data = memoryLike(1 << 20, "pcap");
    await expect(decodeChunkPieces(await compressFrame(data, 3), data.length - 1, marked(data.length + 1))).rejects.toThrow(
      ZstdMessage.TooLarge,
    );
  });
});

import { createRequire } from "node:module";
import { Decompress, decompress } from "fzstd";

interface WasmCodec {
  init(): Promise<void>;
  compress(buf: Uint8Array, level: number): Uint8Array;
  decompress(buf: Uint8Array): Uint8Array;
}

const ZSTD_MAGIC = 0xfd2fb528;
let codec: Promise<WasmCodec> | undefined;

/** Loads the WASM encoder once; its ESM build cannot load in Node, so the CommonJS one is required. */
function wasm(): Promise<WasmCodec> {
  codec ??= (async () => {
    const mod = createRequire(import.meta.url)("@bokuweb/zstd-wasm") as WasmCodec;
    await mod.init();
    return mod;
  })();
  return codec;
}

/**
 * Compresses `data` into one zstd frame whose header holds the content size (one-shot
 * compression, so the window never exceeds the input and Go's per-chunk cap accepts it).
 */
export async function compressFrame(data: Uint8Array, level: number): Promise<Uint8Array> {
  return (await wasm()).compress(data, level);
}

/** What a zstd frame header declares. */
export interface FrameHeader {
  /** Window size in bytes (the content size for a single-segment frame). */
  readonly windowSize: number;
  /** Declared content size, or `undefined` when the header has none. */
  readonly contentSize: number | undefined;
}

/** Reads the first frame header, skipping skippable frames; `undefined` when the magic number is wrong. */
export function readFrameHeader(data: Uint8Array): FrameHeader | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at + 8 <= data.length && (view.getUint32(at, true) & 0xfffffff0) === 0x184d2a50) {
    at += 8 + view.getUint32(at + 4, true);
  }
  if (at + 5 > data.length || view.getUint32(at, true) !== ZSTD_MAGIC) return undefined;
  const fhd = data[at + 4] as number;
  const singleSegment = (fhd >> 5) & 1;
  const fcsFlag = fhd >> 6;
  let pos = at + 5;
  let windowSize = 0;
  if (!singleSegment) {
    const wd = data[pos++] ?? 0;
    const base = 2 ** (10 + (wd >> 3));
    windowSize = base + (base / 8) * (wd & 7);
  }
  pos += [0, 1, 2, 4][fhd & 3] as number;
  const fcsSize = fcsFlag === 0 ? singleSegment : 2 ** fcsFlag;
  let contentSize: number | undefined;
  if (fcsSize > 0 && pos + fcsSize <= data.length) {
    contentSize = 0;
    for (let i = fcsSize - 1; i >= 0; i--) contentSize = contentSize * 256 + (data[pos + i] as number);
    if (fcsSize === 2) contentSize += 256;
  }
  return { windowSize: singleSegment ? (contentSize ?? 0) : windowSize, contentSize };
}

/** Go's klauspost error texts, so error messages read the same from both pulls. */
export const ZstdMessage = {
  Magic: "invalid input: magic number mismatch",
  Window: "window size exceeded",
  TooLarge: "decompressed size exceeds configured limit",
} as const;

/** The WASM decoder for a chunk that is one frame with its content size; `undefined` when it cannot be used. */
async function wasmDecode(data: Uint8Array, header: FrameHeader): Promise<Uint8Array | undefined> {
  if (header.contentSize === undefined || data[0] !== 0x28) return undefined;
  try {
    const out = (await wasm()).decompress(data);
    return out.length === header.contentSize ? out : undefined;
  } catch {
    return undefined; // several frames, or a frame the one-shot call refuses: the JS decoder decides
  }
}

/**
 * Decodes one chunk on its own, refusing a window or an output above `cap` as Go's windowed
 * pull does. Throws an `Error` whose message is Go's text.
 */
export async function decodeChunk(data: Uint8Array, cap: number): Promise<Uint8Array> {
  const header = readFrameHeader(data);
  if (header === undefined) throw new Error(ZstdMessage.Magic);
  if (header.windowSize > cap) throw new Error(ZstdMessage.Window);
  if (header.contentSize !== undefined && header.contentSize > cap) throw new Error(ZstdMessage.TooLarge);
  const out = (await wasmDecode(data, header)) ?? decompress(data);
  if (out.length > cap) throw new Error(ZstdMessage.TooLarge);
  return out;
}

/** A streaming decoder over concatenated frames; `push` returns the bytes decoded so far. */
export class StreamDecoder {
  #out: Uint8Array[] = [];
  #started = false;
  readonly #dec = new Decompress((chunk) => {
    this.#out.push(chunk.slice());
  });

  /** Feeds compressed bytes; `final` marks the end of the input. */
  push(chunk: Uint8Array, final = false): Uint8Array[] {
    if (!this.#started && chunk.length > 0) {
      this.#started = true;
      if (chunk.length >= 4 && readFrameHeader(chunk) === undefined) throw new Error(ZstdMessage.Magic);
    }
    this.#dec.push(chunk, final);
    const out = this.#out;
    this.#out = [];
    return out;
  }
}

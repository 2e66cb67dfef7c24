/** zstd frame magic numbers (RFC 8878 §3.1). */
export const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames use 0x184D2A50 to 0x184D2A5F. */
export const SKIPPABLE_MAGIC = 0x184d2a50;

/** What a zstd frame header declares. */
export interface FrameHeader {
  /** Window size in bytes (the content size for a single-segment frame). */
  readonly windowSize: number;
  /** Declared content size, or `undefined` when the header has none. */
  readonly contentSize: number | undefined;
}

/** A frame header with its single-segment flag (its window is then its content size). */
export interface FrameHeaderFields extends FrameHeader {
  /** Whether the frame is one segment, its window its content size. */
  readonly singleSegment: boolean;
}

/** Reads the first frame header, skipping skippable frames; `undefined` when the magic number is wrong. */
export function readFrameHeader(data: Uint8Array): FrameHeader | undefined {
  const fields = frameHeaderFields(data);
  return fields && { windowSize: fields.windowSize, contentSize: fields.contentSize };
}

/** {@link readFrameHeader} with the single-segment flag. */
export function frameHeaderFields(data: Uint8Array): FrameHeaderFields | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  while (at + 8 <= data.length && (view.getUint32(at, true) & 0xfffffff0) === SKIPPABLE_MAGIC) {
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
  return { windowSize: singleSegment ? (contentSize ?? 0) : windowSize, contentSize, singleSegment: singleSegment === 1 };
}

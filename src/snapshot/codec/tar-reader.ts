import type { ByteReader, EntryBody } from "../io/byte-reader.js";
import { StreamRefusal, unexpectedEOF } from "../io/stream-refusal.js";

/** One entry of an export stream. */
export interface TarEntry {
  /** Entry path (PAX `path` and GNU long names applied). */
  readonly name: string;
  /** Type flag character (`"0"` for a regular file). */
  readonly typeflag: string;
  /** Body length. */
  readonly size: number;
  /** Mode bits as stored. */
  readonly mode: number;
  /** PAX records of the entry (global ones excluded). */
  readonly pax: Readonly<Record<string, string>>;
}

const INVALID = "archive/tar: invalid tar header";
const decoder = new TextDecoder();

function cString(block: Uint8Array, at: number, length: number): string {
  const field = block.subarray(at, at + length);
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

function numeric(block: Uint8Array, at: number, length: number): number {
  const field = block.subarray(at, at + length);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let v = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) v = v * 256 + (field[i] ?? 0);
    return v;
  }
  const text = decoder
    .decode(field)
    .replace(/[\0 ]+$/u, "")
    .replace(/^[\0 ]+/u, "");
  if (text === "") return 0;
  if (!/^[0-7]+$/u.test(text)) throw new StreamRefusal(INVALID);
  return Number.parseInt(text, 8);
}

function checksumOK(block: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < block.length; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] as number);
  try {
    return numeric(block, 148, 8) === sum;
  } catch {
    return false;
  }
}

/** Go's `archive/tar` cap on a PAX or GNU long-name block (`maxSpecialFileSize`). */
export const MAX_SPECIAL_FILE = 1 << 20;
const FIELD_TOO_LONG = "archive/tar: header field too long";
const SPACE = 0x20;
const NEWLINE = 0x0a;
const EQUALS = 0x3d;

/** The decimal length field of a record, as Go's `strconv.ParseInt` reads it; `NaN` when it is not one. */
function recordLength(data: Uint8Array, start: number, end: number): number {
  let at = start;
  if (data[at] === 0x2b || data[at] === 0x2d) at++;
  if (at === end) return Number.NaN;
  let n = 0;
  for (; at < end; at++) {
    const digit = (data[at] as number) - 0x30;
    if (digit < 0 || digit > 9) return Number.NaN;
    n = Math.min(n * 10 + digit, Number.MAX_SAFE_INTEGER);
  }
  return data[start] === 0x2d ? -n : n;
}

/**
 * Go's `parsePAX`: `<length> <key>=<value>\n` records, read in one pass over the bytes (each
 * record's length field tells where the next starts), so many records or a huge length field
 * cost time in proportion to the block.
 */
function parsePAX(data: Uint8Array): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(SPACE, at);
    if (space < 0) throw new StreamRefusal(INVALID);
    const length = recordLength(data, at, space);
    if (!(length >= 5) || length > data.length - at || space + 1 >= at + length) throw new StreamRefusal(INVALID);
    const end = at + length;
    if (data[end - 1] !== NEWLINE) throw new StreamRefusal(INVALID);
    const eq = data.indexOf(EQUALS, space + 1);
    if (eq < 0 || eq >= end - 1) throw new StreamRefusal(INVALID);
    const key = decoder.decode(data.subarray(space + 1, eq));
    const value = decoder.decode(data.subarray(eq + 1, end - 1));
    const nulChecked = key === "path" || key === "linkpath" || key === "uname" || key === "gname" ? value : key;
    if (key === "" || nulChecked.includes("\0")) throw new StreamRefusal(INVALID);
    records[key] = value;
    at = end;
  }
  return records;
}

/** Go's `ParseInt(v, 10, 64)` of a PAX `size`, which must not be negative. */
function paxSize(value: string): number {
  if (!/^[+-]?[0-9]+$/u.test(value)) throw new StreamRefusal(INVALID);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new StreamRefusal(INVALID);
  return n;
}

/** Types whose entries carry no body in Go's reader, whatever their size field says (`isHeaderOnlyType`). */
const HEADER_ONLY = new Set(["1", "2", "3", "4", "5", "6"]);

const isZero = (block: Uint8Array): boolean => block.every((b) => b === 0);
const padOf = (size: number): number => (512 - (size % 512)) % 512;

/** How a tar read by {@link readTar} ended, when asked: `trailer` once both zero blocks were read. */
export interface TarEnding {
  trailer: boolean;
}

/**
 * Reads tar entries the way Go's `archive/tar` reader does for cocoon's export stream: USTAR,
 * PAX (`x`; `g` skipped) and GNU long names (`L`; `K` skipped), each such block at most
 * {@link MAX_SPECIAL_FILE} bytes. A body left unread is skipped; links, devices, directories and
 * FIFOs have none. Given `ending`, the block after a zero block is read too (a non-zero one is an
 * invalid header), and `ending.trailer` tells whether the stream ended on the two zero blocks.
 */
export async function* readTar(source: ByteReader, ending?: TarEnding): AsyncGenerator<{ entry: TarEntry; body: EntryBody }> {
  let pax: Record<string, string> = {};
  let longName = "";
  for (;;) {
    const block = await source.readExact(512);
    if (block === null) return;
    if (isZero(block)) {
      if (ending === undefined) return;
      const second = await source.readExact(512);
      if (second !== null && !isZero(second)) throw new StreamRefusal(INVALID);
      ending.trailer = second !== null;
      return;
    }
    if (!checksumOK(block)) throw new StreamRefusal(INVALID);
    let typeflag = String.fromCharCode(block[156] as number);
    let size = numeric(block, 124, 12);
    const ustar = cString(block, 257, 6) === "ustar" && cString(block, 263, 2) === "00";
    const prefix = ustar ? cString(block, 345, 155) : "";
    if (typeflag === "x" || typeflag === "g" || typeflag === "L" || typeflag === "K") {
      if (size > MAX_SPECIAL_FILE) throw new StreamRefusal(FIELD_TOO_LONG);
      const data = (await source.readExact(size)) ?? new Uint8Array(0);
      if (data.length < size) throw unexpectedEOF();
      await source.skip(padOf(size));
      if (typeflag === "x") pax = parsePAX(data);
      if (typeflag === "L") longName = cString(data, 0, data.length);
      if (typeflag === "g") {
        parsePAX(data);
        pax = {};
        longName = "";
      }
      continue;
    }
    if (pax.size) size = paxSize(pax.size);
    const name = longName || pax.path || (prefix ? `${prefix}/${cString(block, 0, 100)}` : cString(block, 0, 100));
    if (typeflag === "\0") typeflag = name.endsWith("/") ? "5" : "0";
    const entry: TarEntry = { name, typeflag, size, mode: numeric(block, 100, 8), pax };
    pax = {};
    longName = "";
    const stored = HEADER_ONLY.has(typeflag) ? 0 : size;
    const body = source.body(stored);
    yield { entry, body };
    await source.skip(body.left + padOf(stored));
  }
}

import type { ByteReader, EntryBody } from "./byte-reader.js";

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
  if (!/^[0-7]+$/u.test(text)) throw new Error(INVALID);
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

function parsePAX(data: Uint8Array): Record<string, string> {
  const records: Record<string, string> = {};
  let text = decoder.decode(data);
  while (text.length > 0) {
    const space = text.indexOf(" ");
    const length = Number.parseInt(text.slice(0, space), 10);
    if (space < 0 || !Number.isFinite(length) || length <= 0) throw new Error(INVALID);
    const bytes = new TextEncoder().encode(text).subarray(0, length);
    const record = decoder.decode(bytes);
    const eq = record.indexOf("=");
    if (eq < 0 || !record.endsWith("\n")) throw new Error(INVALID);
    records[record.slice(space + 1, eq)] = record.slice(eq + 1, -1);
    text = text.slice(record.length);
  }
  return records;
}

const isZero = (block: Uint8Array): boolean => block.every((b) => b === 0);
const padOf = (size: number): number => (512 - (size % 512)) % 512;

/**
 * Reads tar entries the way Go's `archive/tar` reader does for cocoon's export stream: USTAR,
 * PAX (`x`; `g` skipped) and GNU long names. A body left unread is skipped.
 */
export async function* readTar(source: ByteReader): AsyncGenerator<{ entry: TarEntry; body: EntryBody }> {
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  for (;;) {
    const block = await source.readExact(512);
    if (block === null) return;
    if (isZero(block)) return;
    if (!checksumOK(block)) throw new Error(INVALID);
    const typeflag = String.fromCharCode(block[156] as number) || "0";
    let size = numeric(block, 124, 12);
    const ustar = cString(block, 257, 6) === "ustar" && cString(block, 263, 2) === "00";
    const prefix = ustar ? cString(block, 345, 155) : "";
    if (typeflag === "x" || typeflag === "g" || typeflag === "L") {
      const data = (await source.readExact(size)) ?? new Uint8Array(0);
      if (data.length < size) throw new Error("unexpected EOF");
      await source.skip(padOf(size));
      if (typeflag === "x") pax = { ...pax, ...parsePAX(data) };
      if (typeflag === "L") longName = cString(data, 0, data.length);
      continue;
    }
    if (pax.size !== undefined) size = Number(pax.size);
    const name = pax.path ?? longName ?? (prefix ? `${prefix}/${cString(block, 0, 100)}` : cString(block, 0, 100));
    const entry: TarEntry = { name, typeflag: typeflag === "\0" ? "0" : typeflag, size, mode: numeric(block, 100, 8), pax };
    pax = {};
    longName = undefined;
    const body = source.body(size);
    yield { entry, body };
    await source.skip(body.left + padOf(size));
  }
}

import type { SnapshotFile } from "../../oci/snapshot-config.js";
import { formatError } from "../errors.js";
import { SparsePAX } from "./sparse-pax.js";

/** One tar entry as Go's `archive/tar` writer is given it by the snapshot pull. */
export interface TarEntryHeader {
  /** Path of the entry. */
  readonly name: string;
  /** Body length in bytes. */
  readonly size: number;
  /** Mode bits, written verbatim. */
  readonly mode: number;
  /** Modification time in whole seconds since the epoch (already rounded). */
  readonly mtime: number;
  /** PAX records (written sorted by key, in a `PaxHeaders.0/<name>` block). */
  readonly pax?: Readonly<Record<string, string>> | undefined;
}

const BLOCK = 512;
const MAX_OCTAL_SIZE = 0o77777777777;
const encoder = new TextEncoder();

function putString(block: Uint8Array, offset: number, length: number, s: string): void {
  const bytes = encoder.encode(s);
  block.set(bytes.subarray(0, length), offset);
}

function putOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  const fits = value >= 0 && value < 8 ** (length - 1);
  putString(block, offset, length, (fits ? value : 0).toString(8).padStart(length - 1, "0"));
}

function finish(block: Uint8Array): Uint8Array {
  putString(block, 257, 6, "ustar\0");
  putString(block, 263, 2, "00");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  putString(block, 148, 6, sum.toString(8).padStart(6, "0"));
  block[154] = 0;
  block[155] = 0x20;
  return block;
}

function toASCII(s: string): string {
  // eslint-disable-next-line no-control-regex -- ASCII is U+0000 to U+007F, NUL included
  return s.replace(/[^\x00-\x7f]/gu, "");
}

function isASCII(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- ASCII is U+0000 to U+007F, NUL included
  return /^[\x00-\x7f]*$/u.test(s);
}

/** Go's `splitUSTARPath`: a long ASCII name split at a `/` into prefix (≤155) and name (≤100). */
function splitUSTARPath(name: string): [string, string] | undefined {
  let length = name.length;
  if (length <= 100 || !isASCII(name)) return undefined;
  if (length > 156) length = 156;
  else if (name[length - 1] === "/") length--;
  const i = name.slice(0, length).lastIndexOf("/");
  const nlen = name.length - i - 1;
  if (i <= 0 || nlen > 100 || nlen === 0 || i > 155) return undefined;
  return [name.slice(0, i), name.slice(i + 1)];
}

function mainHeader(h: TarEntryHeader, name: string, prefix: string): Uint8Array {
  const block = new Uint8Array(BLOCK);
  putString(block, 0, 100, name);
  putOctal(block, 100, 8, h.mode);
  putOctal(block, 108, 8, 0);
  putOctal(block, 116, 8, 0);
  putOctal(block, 124, 12, h.size);
  putOctal(block, 136, 12, h.mtime);
  block[156] = 0x30;
  putOctal(block, 329, 8, 0);
  putOctal(block, 337, 8, 0);
  putString(block, 345, 155, prefix);
  return finish(block);
}

function paxRecords(records: Readonly<Record<string, string>>): Uint8Array {
  let out = "";
  for (const key of Object.keys(records).sort()) {
    const body = ` ${key}=${records[key]}\n`;
    const bodyLength = encoder.encode(body).length;
    let size = bodyLength + String(bodyLength).length;
    if (String(size).length + bodyLength !== size) size = bodyLength + String(size).length;
    out += `${size}${body}`;
  }
  return encoder.encode(out);
}

function paxBlockName(name: string): string {
  const slash = name.lastIndexOf("/");
  const dir = name.slice(0, slash + 1);
  const file = name.slice(slash + 1);
  const joined = (dir ? `${dir.replace(/\/+$/u, "")}/` : "") + `PaxHeaders.0/${file}`;
  return toASCII(joined).slice(0, 100).replace(/\/+$/u, "");
}

function padded(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / BLOCK) * BLOCK);
  out.set(data);
  return out;
}

/** Returns the header blocks Go's `tar.Writer.WriteHeader` writes for `h` (USTAR, or PAX when needed). */
export function encodeTarHeader(h: TarEntryHeader): Uint8Array {
  const records: Record<string, string> = { ...h.pax };
  let prefix = "";
  let name = h.name;
  if (!isASCII(h.name)) records.path = h.name;
  else if (h.name.length > 100) {
    const split = splitUSTARPath(h.name);
    if (split === undefined) records.path = h.name;
    else [prefix, name] = split;
  }
  if (h.size > MAX_OCTAL_SIZE) records.size = String(h.size);
  if (Object.keys(records).length === 0) return mainHeader(h, name, prefix);
  const data = paxRecords(records);
  const xblock = new Uint8Array(BLOCK);
  putString(xblock, 0, 100, paxBlockName(h.name));
  putOctal(xblock, 100, 8, 0);
  putOctal(xblock, 108, 8, 0);
  putOctal(xblock, 116, 8, 0);
  putOctal(xblock, 124, 12, data.length);
  putOctal(xblock, 136, 12, 0);
  xblock[156] = 0x78;
  const main = mainHeader(h, toASCII(h.name), "");
  const out = new Uint8Array(BLOCK + padded(data).length + BLOCK);
  out.set(finish(xblock), 0);
  out.set(data, BLOCK);
  out.set(main, out.length - BLOCK);
  return out;
}

/** Zero bytes that pad a body of `size` bytes to a whole block. */
export function tarPadding(size: number): Uint8Array {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end an archive (no padding to a 10 KiB record, like Go). */
export const TAR_TRAILER: Uint8Array = new Uint8Array(2 * BLOCK);

/** Go's `layerHeader`: mode 0640 when unset, the sparse PAX records when the config has a map. */
export function layerHeader(title: string, size: number, meta: SnapshotFile, mtime: number): TarEntryHeader {
  const mode = meta.mode || 0o640;
  if (!meta.sparseMap) return { name: title, size, mode, mtime };
  if ((meta.sparseSize ?? 0) <= 0) throw formatError(`layer ${title} has sparse map without sparse size`);
  return {
    name: title,
    size,
    mode,
    mtime,
    pax: { [SparsePAX.Map]: meta.sparseMap, [SparsePAX.Size]: String(meta.sparseSize) },
  };
}

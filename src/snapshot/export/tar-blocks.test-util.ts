// Test-only: a tar's header blocks, field by field, as the bytes hold them (no decoding beyond the layout).

/** The fields of one 512-byte header block, in layout order, as raw text (NULs kept). */
export const HEADER_FIELDS = [
  ["name", 0, 100],
  ["mode", 100, 8],
  ["uid", 108, 8],
  ["gid", 116, 8],
  ["size", 124, 12],
  ["mtime", 136, 12],
  ["chksum", 148, 8],
  ["typeflag", 156, 1],
  ["linkname", 157, 100],
  ["magic", 257, 6],
  ["version", 263, 2],
  ["uname", 265, 32],
  ["gname", 297, 32],
  ["devmajor", 329, 8],
  ["devminor", 337, 8],
  ["prefix", 345, 155],
  ["pad", 500, 12],
] as const;

/** One header block split into its fields. */
export type HeaderFields = Record<(typeof HEADER_FIELDS)[number][0], string>;

/** One entry of a tar as stored: its PAX block (header and records) when it has one, its header, its body. */
export interface StoredEntry {
  readonly pax?: { readonly header: HeaderFields; readonly records: string };
  readonly header: HeaderFields;
  readonly body: Uint8Array;
}

const fieldsOf = (block: Uint8Array): HeaderFields =>
  Object.fromEntries(
    HEADER_FIELDS.map(([name, at, length]) => [name, Buffer.from(block.subarray(at, at + length)).toString("latin1")]),
  ) as HeaderFields;

const octal = (block: Uint8Array, at: number, length: number): number =>
  Number.parseInt(
    Buffer.from(block.subarray(at, at + length))
      .toString("latin1")
      .replace(/\0.*$/su, "") || "0",
    8,
  );

/** Splits a tar (USTAR and PAX `x` blocks only, as cocoon's exports are) into its stored entries. */
export function storedEntries(tar: Uint8Array): StoredEntry[] {
  const out: StoredEntry[] = [];
  let at = 0;
  let pax: StoredEntry["pax"];
  while (at + 512 <= tar.length) {
    const block = tar.subarray(at, at + 512);
    if (block.every((b) => b === 0)) break;
    const size = octal(block, 124, 12);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (block[156] === 0x78) {
      pax = { header: fieldsOf(block), records: Buffer.from(body).toString("utf8") };
      continue;
    }
    out.push({ ...(pax && { pax }), header: fieldsOf(block), body });
    pax = undefined;
  }
  return out;
}

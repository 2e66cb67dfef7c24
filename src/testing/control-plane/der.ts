/**
 * Minimal DER (ASN.1) encoder, enough to write X.509 certificates.
 *
 * @internal
 */

const tlv = (tag: number, ...parts: Uint8Array[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** SEQUENCE of the given encoded values. */
export const sequence = (...parts: Uint8Array[]): Buffer => tlv(0x30, ...parts);
/** SET of the given encoded values. */
export const set = (...parts: Uint8Array[]): Buffer => tlv(0x31, ...parts);
/** Explicitly tagged context-specific value `[n]`. */
export const explicit = (n: number, ...parts: Uint8Array[]): Buffer => tlv(0xa0 + n, ...parts);
/** BOOLEAN true. */
export const TRUE = Buffer.from([0x01, 0x01, 0xff]);
/** UTF8String. */
export const utf8 = (text: string): Buffer => tlv(0x0c, Buffer.from(text, "utf8"));
/** OCTET STRING. */
export const octets = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
/** BIT STRING with no unused bits. */
export const bits = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.from([0]), bytes);

/** INTEGER from unsigned big-endian bytes (or a small non-negative number). */
export function integer(value: number | Uint8Array): Buffer {
  let bytes = typeof value === "number" ? Buffer.from([value]) : Buffer.from(value);
  while (bytes.length > 1 && bytes[0] === 0 && (bytes[1] ?? 0) < 0x80) bytes = bytes.subarray(1);
  if ((bytes[0] ?? 0) >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

/** OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const out = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime (before 2050) or GeneralizedTime, as X.509 requires. */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z";
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

/** KeyUsage BIT STRING from bit numbers (0 = digitalSignature, 5 = keyCertSign), minimally encoded. */
export function keyUsageBits(...bitNumbers: number[]): Buffer {
  const value = bitNumbers.reduce((acc, bit) => acc | (0x80 >> bit), 0);
  let unused = 0;
  while (unused < 7 && (value & (1 << unused)) === 0) unused++;
  return tlv(0x03, Buffer.from([unused, value]));
}

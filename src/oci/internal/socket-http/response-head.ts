/** The longest response head read (status line and headers), as undici's and Node's own limit is 16 KiB; Go allows more, registries need far less. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** A parsed HTTP/1.1 response head. */
export interface ResponseHead {
  readonly status: number;
  /** The reason phrase, `""` when absent. */
  readonly reason: string;
  /** Field names lower-cased, in the order received; values trimmed of surrounding blanks. */
  readonly fields: readonly (readonly [string, string])[];
}

/** How a response's body is delimited (RFC 9112 §6.3). */
export type BodyFraming =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" }
  | { readonly kind: "close" };

/** A response head or body the peer got wrong; the connection is not to be trusted further. */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
}

const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
const FIELD_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[\t ]*([\t\x20-\x7e\x80-\xff]*?)[\t ]*$/;

/** Whether `line` is a well-formed field line (a header, or a chunked body's trailer): a token name, a colon, a value without control characters. */
export function isFieldLine(line: string): boolean {
  return FIELD_LINE.test(line);
}

/**
 * Parses a response head: `text` is its bytes as latin1, up to (not including) the empty line.
 * Strict where a lenient parser would let a peer smuggle: lines end in CRLF, no folded lines, no
 * control characters, field names are tokens.
 *
 * @throws ProtocolError naming what is wrong.
 */
export function parseResponseHead(text: string): ResponseHead {
  const lines = text.split("\r\n");
  const status = STATUS_LINE.exec(lines[0] ?? "");
  if (status === null) throw new ProtocolError(`malformed status line ${JSON.stringify(clip(lines[0] ?? ""))}`);
  const fields: [string, string][] = [];
  for (let i = 1; i < lines.length; i++) {
    const field = FIELD_LINE.exec(lines[i] ?? "");
    if (field === null) throw new ProtocolError(`malformed header line ${JSON.stringify(clip(lines[i] ?? ""))}`);
    const [, name = "", value = ""] = field;
    fields.push([name.toLowerCase(), value]);
  }
  return { status: Number(status[1]), reason: status[2] ?? "", fields };
}

/**
 * How the body of a response to `method` with `head` is delimited: none for `HEAD`, 1xx, 204 and
 * 304; `chunked` when that is the only transfer coding; else `Content-Length` (every value the same
 * decimal); else until the connection closes.
 *
 * @throws ProtocolError for another transfer coding, both framings at once, or lengths that disagree.
 */
export function bodyFraming(method: string, head: ResponseHead): BodyFraming {
  if (method === "HEAD" || head.status < 200 || head.status === 204 || head.status === 304) return { kind: "none" };
  const codings = values(head, "transfer-encoding");
  const lengths = values(head, "content-length");
  if (codings.length > 0) {
    if (lengths.length > 0) throw new ProtocolError("both Transfer-Encoding and Content-Length");
    if (codings.length !== 1 || codings[0]?.toLowerCase() !== "chunked")
      throw new ProtocolError(`unsupported Transfer-Encoding ${JSON.stringify(clip(codings.join(", ")))}`);
    return { kind: "chunked" };
  }
  if (lengths.length === 0) return { kind: "close" };
  if (!lengths.every((v) => /^\d{1,15}$/.test(v)) || new Set(lengths.map(Number)).size !== 1) {
    throw new ProtocolError(`invalid Content-Length ${JSON.stringify(clip(lengths.join(", ")))}`);
  }
  return { kind: "length", length: Number(lengths[0]) };
}

/** Every value of the field `name`, comma-separated lists split. */
function values(head: ResponseHead, name: string): string[] {
  const out: string[] = [];
  for (const [k, v] of head.fields) if (k === name) for (const part of v.split(",")) out.push(part.trim());
  return out;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

// The first JSON value of a text, read as Go's json.Decoder reads it: strict syntax, nesting up to
// 10,000 levels, escapes decoded with U+FFFD for lone surrogates, every member kept in order
// (duplicates too) with the span of text it came from. Iterative, so no depth can overflow the stack.

/** One JSON value and the span `[start, end)` of the text it was read from. */
export type JSONNode = { readonly start: number; end: number } & (
  | { readonly kind: "null" | "true" | "false" }
  | { readonly kind: "number"; readonly text: string }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "array"; readonly items: JSONNode[] }
  | { readonly kind: "object"; readonly members: [string, JSONNode][] }
);

/** Go's `maxNestingDepth`: a value nested deeper is a syntax error, not a stack overflow. */
export const MAX_NESTING_DEPTH = 10_000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const PLAIN_STRING = /"([^"\\\u0000-\u001f]*)"/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

type Container = Extract<JSONNode, { kind: "array" | "object" }>;

/**
 * Reads the first JSON value of `text`; anything after it is ignored, as Go's decoder does.
 *
 * @throws `SyntaxError` with Go's reason (`unexpected EOF`, `exceeded max depth`, `invalid character …`).
 * @internal
 */
export function parseFirstJSONValue(text: string): JSONNode {
  const stack: { node: Container; key?: string | undefined }[] = [];
  let pos = skipSpace(text, 0);
  for (;;) {
    let value: JSONNode | undefined;
    const c = text[pos];
    if (c === "{" || c === "[") {
      if (stack.length >= MAX_NESTING_DEPTH) throw new SyntaxError("exceeded max depth");
      const node: Container = c === "{" ? { kind: "object", members: [], start: pos, end: -1 } : { kind: "array", items: [], start: pos, end: -1 };
      stack.push({ node });
      pos = skipSpace(text, pos + 1);
      if (text[pos] === (c === "{" ? "}" : "]")) {
        stack.pop();
        node.end = ++pos;
        value = node;
      } else if (c === "{") {
        pos = readKey(text, pos, stack[stack.length - 1] as { key?: string });
        continue;
      } else {
        continue;
      }
    } else {
      [value, pos] = readScalar(text, pos);
    }
    // Attach the finished value, then close every container that ends here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return value;
      if (top.node.kind === "object") top.node.members.push([top.key as string, value]);
      else top.node.items.push(value);
      pos = skipSpace(text, pos);
      const next = text[pos];
      if (next === ",") {
        pos = skipSpace(text, pos + 1);
        if (top.node.kind === "object") pos = readKey(text, pos, top);
        break;
      }
      if (next !== (top.node.kind === "object" ? "}" : "]")) throw unexpected(text, pos, `after ${top.node.kind} element`);
      stack.pop();
      top.node.end = ++pos;
      value = top.node;
    }
  }
}

function readKey(text: string, pos: number, into: { key?: string | undefined }): number {
  if (text[pos] !== '"') throw unexpected(text, pos, "looking for beginning of object key string");
  const [key, after] = readString(text, pos);
  into.key = key;
  const colon = skipSpace(text, after);
  if (text[colon] !== ":") throw unexpected(text, colon, "after object key");
  return skipSpace(text, colon + 1);
}

function readScalar(text: string, pos: number): [JSONNode, number] {
  const c = text[pos];
  if (c === '"') {
    const [value, end] = readString(text, pos);
    return [{ kind: "string", value, start: pos, end }, end];
  }
  for (const literal of ["null", "true", "false"] as const) {
    if (text.startsWith(literal, pos)) return [{ kind: literal, start: pos, end: pos + literal.length }, pos + literal.length];
  }
  NUMBER.lastIndex = pos;
  const number = NUMBER.exec(text);
  if (number === null) throw unexpected(text, pos, "looking for beginning of value");
  const end = pos + number[0].length;
  return [{ kind: "number", text: number[0], start: pos, end }, end];
}

function readString(text: string, pos: number): [string, number] {
  PLAIN_STRING.lastIndex = pos;
  const plain = PLAIN_STRING.exec(text);
  if (plain !== null) return [plain[1] as string, PLAIN_STRING.lastIndex];
  let out = "";
  for (let i = pos + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') return [out, i + 1];
    if (c < " ") throw unexpected(text, i, "in string literal");
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = text[++i];
    if (e === undefined) break;
    if (e !== "u") {
      const short = ESCAPES[e];
      if (short === undefined) throw unexpected(text, i, "in string escape code");
      out += short;
      continue;
    }
    const unit = hex4(text, i + 1);
    i += 4;
    const low = unit >= 0xd800 && unit < 0xdc00 && text[i + 1] === "\\" && text[i + 2] === "u" ? hex4(text, i + 3) : -1;
    if (low >= 0xdc00 && low < 0xe000) {
      out += String.fromCharCode(unit, low);
      i += 6;
    } else {
      out += unit >= 0xd800 && unit < 0xe000 ? "\ufffd" : String.fromCharCode(unit);
    }
  }
  throw new SyntaxError("unexpected EOF");
}

function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw digits.length < 4 ? new SyntaxError("unexpected EOF") : unexpected(text, at, "in \\u hexadecimal character escape");
  return parseInt(digits, 16);
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    pos++;
  }
  return pos;
}

function unexpected(text: string, pos: number, context: string): SyntaxError {
  const c = text.codePointAt(pos);
  return new SyntaxError(c === undefined ? "unexpected EOF" : `invalid character ${JSON.stringify(String.fromCodePoint(c))} ${context}`);
}

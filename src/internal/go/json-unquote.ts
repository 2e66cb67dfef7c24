// A JSON string literal as Go's decoder reads it: escapes decoded, lone surrogates as U+FFFD.

// eslint-disable-next-line no-control-regex -- JSON strings are defined by their control characters
const PLAIN_STRING = /"([^"\\\u0000-\u001f]*)"/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * Reads the string literal at `pos` and returns its value and the position after it.
 *
 * @throws `SyntaxError` for a control character, a bad escape or a missing end.
 * @internal
 */
export function readString(text: string, pos: number): [string, number] {
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
  if (!/^[0-9a-fA-F]{4}$/.test(digits))
    throw digits.length < 4 ? new SyntaxError("unexpected EOF") : unexpected(text, at, "in \\u hexadecimal character escape");
  return parseInt(digits, 16);
}

/**
 * Go's wording for a character that does not belong at `pos`.
 *
 * @internal
 */
export function unexpected(text: string, pos: number, context: string): SyntaxError {
  const c = text.codePointAt(pos);
  return new SyntaxError(c === undefined ? "unexpected EOF" : `invalid character ${JSON.stringify(String.fromCodePoint(c))} ${context}`);
}

// Go's `encoding/json` string rules for writing: quoting (HTML characters escaped), the compacting of
// raw JSON, and the UTF-8 order of map keys. The reading side is `json-unquote.ts`.

const HEX = "0123456789abcdef";
/** Code units Go's encoder (`escapeHTML` on) does not write verbatim. */
// eslint-disable-next-line no-control-regex -- JSON strings are defined by their control characters
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};

const unicodeEscape = (c: number): string => `\\u${HEX[c >> 12]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;

/**
 * Quotes a string exactly like Go's `encoding/json`: `<`, `>`, `&`, U+2028 and U+2029 become
 * `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`; control characters use `\b \f \n \r \t` or
 * `\u00XX`; everything else is written as is. A lone surrogate becomes U+FFFD, which is what
 * Go holds once the string has crossed to it as UTF-8.
 *
 * @example
 * ```ts
 * goJSONString("<a&b>"); // => "\"\\u003ca\\u0026b\\u003e\""
 * ```
 */
export function goJSONString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escaped: string | undefined;
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++; // a valid pair: written as is
        continue;
      }
      escaped = "\ufffd";
    } else if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      escaped = SHORT_ESCAPES[c] ?? unicodeEscape(c);
    }
    if (escaped === undefined) continue;
    out += s.slice(from, i) + escaped;
    from = i + 1;
  }
  return `${out}${s.slice(from)}"`;
}

/**
 * Go's `json.Compact` with HTML escaping, as `json.Marshal` applies it to a `json.Marshaler`'s
 * output (a `RawExtension`): whitespace between tokens goes, `<`, `>`, `&`, U+2028 and U+2029
 * inside strings are escaped, everything else (number text, key order, escapes) stays as written.
 * `text` must be one valid JSON value.
 *
 * @internal
 */
export function compactGoJSON(text: string): string {
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let replacement: string | undefined;
    if (inString) {
      if (c === 0x5c)
        i++; // the escaped character is copied as is
      else if (c === 0x22) inString = false;
      else if (c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) replacement = unicodeEscape(c);
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      replacement = "";
    }
    if (replacement === undefined) continue;
    out += text.slice(from, i) + replacement;
    from = i + 1;
  }
  return out + text.slice(from);
}

/**
 * Orders strings as Go orders map keys: by their UTF-8 bytes, i.e. by code point.
 *
 * @internal
 */
export function compareUTF8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    // UTF-16 order is code point order except that surrogates (astral code points) must sort
    // above U+E000–U+FFFF.
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

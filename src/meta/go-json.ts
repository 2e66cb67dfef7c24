import { CocoonError } from "../errors.js";
import type { AnnotationDelta } from "./annotations.js";
import { checkedEntries } from "./internal/annotation-delta.js";

const HEX = "0123456789abcdef";
/** Code units Go's encoder (`escapeHTML` on) does not write verbatim. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;
const LONE_SURROGATE = /\p{Cs}/gu;
const SURROGATE = /[\ud800-\udfff]/;
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x08: "\\b",
  0x0c: "\\f",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
};

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
      escaped = SHORT_ESCAPES[c] ?? `\\u${HEX[c >> 12]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
    }
    if (escaped === undefined) continue;
    out += s.slice(from, i) + escaped;
    from = i + 1;
  }
  return `${out}${s.slice(from)}"`;
}

/** Orders strings as Go orders map keys: by their UTF-8 bytes, i.e. by code point. */
function compareUTF8(a: string, b: string): number {
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

function marshal(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return goJSONString(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "number":
      if (!Number.isFinite(value)) throw unsupported(path, String(value));
      // JavaScript's shortest round-trip text is Go's float64 text, exponent form included
      // (`1e+21`, `1e-7`); only negative zero differs.
      return Object.is(value, -0) ? "-0" : String(value);
    case "object":
      break;
    default:
      throw unsupported(path, typeof value);
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => marshal(item, `${path}[${String(i)}]`)).join(",")}]`;
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>)];
    for (const [key] of entries) if (typeof key !== "string") throw unsupported(path, `a ${typeof key} map key`);
    return mapMembers(entries as [string, unknown][], path);
  }
  const withToJSON = value as { toJSON?: unknown };
  if (typeof withToJSON.toJSON === "function") return marshal((withToJSON.toJSON as () => unknown)(), path);
  return members(Object.entries(value).filter(([, item]) => item !== undefined), path);
}

/** Writes an object's members in the given order; two keys equal as UTF-8 are refused. */
function members(entries: [string, unknown][], path: string): string {
  let out = "";
  const seen = new Set<string>();
  for (const [key, item] of entries) {
    const quoted = goJSONString(key);
    if (seen.has(quoted)) {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `${path} has two keys that are the same once written as UTF-8: ${quoted}`);
    }
    seen.add(quoted);
    out += `${out === "" ? "" : ","}${quoted}:${marshal(item, `${path}.${key}`)}`;
  }
  return `{${out}}`;
}

const byUTF8Key = (a: readonly [string, unknown], b: readonly [string, unknown]): number => compareUTF8(a[0], b[0]);

/**
 * Writes a Go map's members in one pass over `entries` (reordered and rewritten in place): keys as
 * Go holds them (lone surrogates as U+FFFD), sorted by UTF-8 bytes. Two keys equal once UTF-8 are
 * refused; after sorting they are neighbours, so no set is needed.
 */
function mapMembers(entries: [string, unknown][], path: string): string {
  for (const entry of entries) if (SURROGATE.test(entry[0])) entry[0] = entry[0].replace(LONE_SURROGATE, "\ufffd");
  entries.sort(byUTF8Key);
  let out = "";
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i] as [string, unknown];
    const quoted = goJSONString(key);
    if (i > 0 && entries[i - 1]?.[0] === key) throw duplicateKey(path, quoted);
    const text = typeof item === "string" ? goJSONString(item) : item === null ? "null" : marshal(item, `${path}.${key}`);
    out += i === 0 ? `${quoted}:${text}` : `,${quoted}:${text}`;
  }
  return `{${out}}`;
}

function duplicateKey(path: string, quoted: string): CocoonError {
  return new CocoonError("ERR_INVALID_ARGUMENT", `${path} has two keys that are the same once written as UTF-8: ${quoted}`);
}

function unsupported(path: string, what: string): CocoonError {
  return new CocoonError("ERR_INVALID_ARGUMENT", `${path} cannot be written as JSON: ${what}`);
}

/**
 * Encodes a value as JSON byte for byte as Go's `encoding/json.Marshal` writes it.
 *
 * A plain object is written in its own key order, as Go writes a struct's fields (`undefined`
 * members are skipped); a `Map` with string keys is written as a Go map, keys sorted by their
 * UTF-8 bytes. Strings are escaped as {@link goJSONString} does, a `bigint` is written as an
 * integer, a number as Go writes a `float64` (`-0` stays `-0`), and `toJSON()` is honoured.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` for a non-finite number, a function, a symbol,
 * `undefined` outside an object, a non-string map key, or two map keys equal once written as UTF-8.
 * @example
 * ```ts
 * marshalGoJSON({ b: "<x>", a: new Map([["z", 1], ["y", null]]) });
 * // => '{"b":"\\u003cx\\u003e","a":{"y":null,"z":1}}'
 * ```
 */
export function marshalGoJSON(value: unknown): string {
  return marshal(value, "value");
}

/**
 * Returns the bytes of Go's `AnnotationsMergePatch` for a delta: the same patch as
 * {@link annotationsMergePatch}, written by Go's rules (keys sorted by UTF-8 bytes, HTML
 * characters, U+2028 and U+2029 escaped, `null` deleting a key).
 *
 * A JavaScript object cannot hold Go's key order when keys look like integers (`"10"` is
 * enumerated before `"9"`), so send these bytes, not `JSON.stringify` of the object, when the
 * bytes must be Go's.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ANNOTATION_DELTA` for a missing, empty or ill-typed delta;
 * `ERR_INVALID_ARGUMENT` for two keys that differ only in lone surrogates (equal once UTF-8).
 * @example
 * ```ts
 * annotationsMergePatchJSON({ "vm.cocoonstack.io/hibernate": null, "a/b": "<x>" });
 * // => '{"metadata":{"annotations":{"a/b":"\\u003cx\\u003e","vm.cocoonstack.io/hibernate":null}}}'
 * ```
 */
export function annotationsMergePatchJSON(delta: AnnotationDelta): string {
  // Straight from the checked entries to Go's bytes through the encoder's map writer: no
  // intermediate object, Map or second sort.
  return `{"metadata":{"annotations":${mapMembers(checkedEntries(delta, false), "patch.metadata.annotations")}}}`;
}

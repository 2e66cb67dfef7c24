import { CocoonError } from "../../errors.js";
import { compactGoJSON, compareUTF8, goJSONString } from "./json-quote.js";

const LONE_SURROGATE = /\p{Cs}/gu;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * JSON text written as it is (compacted, HTML characters escaped), as Go writes a
 * `json.RawMessage` or `runtime.RawExtension`: see {@link goRawJSON}.
 */
class GoRawJSON {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/**
 * Wraps one valid JSON value's text so that the Go encoder writes it compacted and otherwise
 * unchanged (number text and key order kept), as Go writes a `runtime.RawExtension`.
 *
 * @internal
 */
export function goRawJSON(text: string): object {
  return new GoRawJSON(text);
}

/** How {@link marshal} writes plain objects: in their own order (Go structs) or sorted (Go maps). */
interface MarshalMode {
  readonly objectsAsMaps: boolean;
}
const AS_STRUCTS: MarshalMode = { objectsAsMaps: false };
const AS_MAPS: MarshalMode = { objectsAsMaps: true };

function marshal(value: unknown, path: string, mode: MarshalMode): string {
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
  if (value instanceof GoRawJSON) return compactGoJSON(value.text);
  if (Array.isArray(value)) return `[${value.map((item, i) => marshal(item, `${path}[${String(i)}]`, mode)).join(",")}]`;
  if (value instanceof Map) return sortedMembers([...(value as Map<unknown, unknown>)], path, mode);
  const withToJSON = value as { toJSON?: unknown };
  if (typeof withToJSON.toJSON === "function") return marshal((withToJSON.toJSON as () => unknown)(), path, mode);
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return mode.objectsAsMaps ? sortedMembers(entries, path, mode) : members(entries, path, mode);
}

/** Writes a Go map: string keys, lone surrogates as U+FFFD, sorted by UTF-8 bytes. */
function sortedMembers(pairs: [unknown, unknown][], path: string, mode: MarshalMode): string {
  for (const [key] of pairs) if (typeof key !== "string") throw unsupported(path, `a ${typeof key} map key`);
  return mapMembers(pairs as [string, unknown][], path, mode);
}

const byUTF8Key = (a: readonly [string, unknown], b: readonly [string, unknown]): number => compareUTF8(a[0], b[0]);
/** Without surrogates UTF-16 order is UTF-8 order, and the engine's own comparison is far cheaper. */
const byUTF16Key = (a: readonly [string, unknown], b: readonly [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * Writes a Go map's members in one pass over `entries` (reordered and rewritten in place): keys as
 * Go holds them (lone surrogates as U+FFFD), sorted by UTF-8 bytes. Two keys equal once UTF-8 are
 * refused; after sorting they are neighbours, so no set is needed.
 */
function mapMembers(entries: [string, unknown][], path: string, mode: MarshalMode): string {
  let surrogates = false;
  for (const entry of entries) {
    if (!SURROGATE.test(entry[0])) continue;
    surrogates = true;
    entry[0] = entry[0].replace(LONE_SURROGATE, "\ufffd");
  }
  entries.sort(surrogates ? byUTF8Key : byUTF16Key);
  let out = "";
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i] as [string, unknown];
    const quoted = goJSONString(key);
    if (i > 0 && entries[i - 1]?.[0] === key) throw duplicateKey(path, quoted);
    const text = typeof item === "string" ? goJSONString(item) : item === null ? "null" : marshal(item, `${path}.${key}`, mode);
    out += i === 0 ? `${quoted}:${text}` : `,${quoted}:${text}`;
  }
  return `{${out}}`;
}

function duplicateKey(path: string, quoted: string): CocoonError {
  return new CocoonError("ERR_INVALID_ARGUMENT", `${path} has two keys that are the same once written as UTF-8: ${quoted}`);
}

/** Writes an object's members in the given order; two keys equal as UTF-8 are refused. */
function members(entries: [string, unknown][], path: string, mode: MarshalMode): string {
  let out = "";
  const seen = new Set<string>();
  for (const [key, item] of entries) {
    const quoted = goJSONString(key);
    if (seen.has(quoted)) throw duplicateKey(path, quoted);
    seen.add(quoted);
    out += `${out === "" ? "" : ","}${quoted}:${marshal(item, `${path}.${key}`, mode)}`;
  }
  return `{${out}}`;
}

function unsupported(path: string, what: string): CocoonError {
  return new CocoonError("ERR_INVALID_ARGUMENT", `${path} cannot be written as JSON: ${what}`);
}

/**
 * Encodes a value as JSON byte for byte as Go's `encoding/json.Marshal` writes it.
 *
 * A plain object is written in its own key order, as Go writes a struct's fields (`undefined`
 * members are skipped); a `Map` with string keys is written as a Go map, keys sorted by their
 * UTF-8 bytes. Strings are escaped as Go escapes them (`goJSONString`), a `bigint` is written as an
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
  return marshal(value, "value", AS_STRUCTS);
}

/**
 * Encodes a value as Go writes a `map[string]any` decoded from JSON (what controller-runtime's
 * merge patches are): every object, plain or `Map`, has its keys sorted by UTF-8 bytes.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` as {@link marshalGoJSON} does.
 * @internal
 */
export function marshalGoMapJSON(value: unknown): string {
  return marshal(value, "value", AS_MAPS);
}

/**
 * Writes `entries` as the members of a Go `map[string]T` (`{…}` included): keys sorted by UTF-8
 * bytes, lone surrogates as U+FFFD, values as {@link marshalGoJSON} writes them. `entries` is
 * reordered and rewritten in place; `path` names the map in errors.
 *
 * @throws {@link CocoonError} `ERR_INVALID_ARGUMENT` as {@link marshalGoJSON} does.
 * @internal
 */
export function marshalGoMapEntries(entries: [string, unknown][], path: string): string {
  return mapMembers(entries, path, AS_STRUCTS);
}

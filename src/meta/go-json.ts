import { CocoonError } from "../errors.js";
import { type AnnotationDelta, annotationsMergePatch } from "./annotations.js";
import { compactGoJSON, compareUTF8, goJSONString } from "./go-json-string.js";

export { goJSONString } from "./go-json-string.js";

const LONE_SURROGATE = /\p{Cs}/gu;

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
  const entries = pairs.map(([key, item]): [string, unknown] => {
    if (typeof key !== "string") throw unsupported(path, `a ${typeof key} map key`);
    return [key.replace(LONE_SURROGATE, "\ufffd"), item];
  });
  return members(
    entries.sort(([a], [b]) => compareUTF8(a, b)),
    path,
    mode,
  );
}

/** Writes an object's members in the given order; two keys equal as UTF-8 are refused. */
function members(entries: [string, unknown][], path: string, mode: MarshalMode): string {
  let out = "";
  const seen = new Set<string>();
  for (const [key, item] of entries) {
    const quoted = goJSONString(key);
    if (seen.has(quoted)) {
      throw new CocoonError("ERR_INVALID_ARGUMENT", `${path} has two keys that are the same once written as UTF-8: ${quoted}`);
    }
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
  const annotations = annotationsMergePatch(delta).metadata.annotations;
  return marshal({ metadata: { annotations: new Map(Object.entries(annotations)) } }, "patch", AS_STRUCTS);
}

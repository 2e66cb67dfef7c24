// Strict decoding of a JSON tree into a described Go type, refusing what encoding/json refuses:
// a value of the wrong JSON kind, an integer that does not fit, a fraction or exponent where an
// integer goes, bad base64. Struct keys match as Go matches them; `null` leaves a value as it was.
import type { GoField, GoType } from "./go-type.js";
import { inIntRange } from "./int-range.js";
import type { JSONNode } from "./json-tree.js";

/** A `runtime.RawExtension` as decoded: the exact text of the value, or absent. */
export interface RawText {
  readonly rawText: string;
}

/**
 * A JSON value Go's decoder refuses for the Go type it goes into: `json.UnmarshalTypeError`.
 *
 * @internal
 */
export class GoDecodeError extends TypeError {
  /** The JSON kind found (`string`, `number`, `true`, `object`, ...). */
  readonly jsonKind: string;
  /** Where: the root name, then `.field`, `[index]` and `.key` steps. */
  readonly path: string;
  /** The kind of Go type the value was refused for. */
  readonly goKind: GoType["kind"];
  constructor(jsonKind: string, path: string, goKind: GoType["kind"]) {
    super(`cannot unmarshal ${jsonKind} into ${path} of type ${goKind}`);
    this.jsonKind = jsonKind;
    this.path = path;
    this.goKind = goKind;
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes `node` into a value of `type` the way `json.Unmarshal` fills a Go value, starting from
 * `current` (Go decodes a repeated key into what the first one left). Structs come back with every
 * field (zero values filled), nil pointers, slices and maps as `undefined`, `[]byte` as base64 text,
 * a `RawExtension` as {@link RawText}. Objects are built with own properties only (`__proto__` is a key).
 *
 * @throws `TypeError` naming the path and what Go refuses.
 * @internal
 */
export function decodeGo(type: GoType, node: JSONNode, text: string, path: string, current?: unknown): unknown {
  if (node.kind === "null")
    return type.kind === "ptr" || type.kind === "slice" || type.kind === "map" || type.kind === "bytes"
      ? undefined
      : (current ?? zero(type));
  const mismatch = (): TypeError => new GoDecodeError(node.kind, path, type.kind);
  switch (type.kind) {
    case "string":
      if (node.kind !== "string") throw mismatch();
      return node.value;
    case "bool":
      if (node.kind !== "true" && node.kind !== "false") throw mismatch();
      return node.kind === "true";
    case "int32":
    case "int64":
    case "uint8": {
      if (node.kind !== "number" || !/^-?\d+$/.test(node.text)) throw mismatch();
      const n = BigInt(node.text);
      if (!inIntRange(n, type.kind)) throw mismatch();
      if (type.kind === "int64" && type.safe === true && !Number.isSafeInteger(Number(n))) throw mismatch();
      return Number(n);
    }
    case "raw":
      return { rawText: text.slice(node.start, node.end) } satisfies RawText;
    case "bytes":
      return decodeBytes(node, text, path, mismatch);
    case "ptr":
      return decodeGo(type.elem, node, text, path, current);
    case "slice":
      if (node.kind !== "array") throw mismatch();
      // Go reuses the slice it decodes into, so an element of a repeated key starts from the old one.
      return node.items.map((item, i) =>
        decodeGo(type.elem, item, text, `${path}[${String(i)}]`, Array.isArray(current) ? current[i] : undefined),
      );
    case "map": {
      if (node.kind !== "object") throw mismatch();
      const out = (current ?? {}) as Record<string, unknown>;
      for (const [key, value] of node.members) define(out, key, decodeGo(type.elem, value, text, `${path}.${key}`));
      return out;
    }
    case "struct":
      if (node.kind !== "object") throw mismatch();
      return decodeStruct(type.fields, node.members, text, path, (current ?? zero(type)) as Record<string, unknown>);
    case "quantity":
    case "time":
      throw new TypeError(`${path}: ${type.kind} is not decoded strictly`);
  }
}

function decodeStruct(
  fields: readonly GoField[],
  members: readonly (readonly [string, JSONNode])[],
  text: string,
  path: string,
  out: Record<string, unknown>,
) {
  for (const [key, value] of members) {
    const field = fields.find((f) => f.name === key) ?? fields.find((f) => foldName(f.name) === foldName(key));
    if (field === undefined) continue; // unknown fields are skipped
    const decoded = decodeGo(field.type, value, text, path === "" ? field.name : `${path}.${field.name}`, out[field.name]);
    if (decoded === undefined)
      delete out[field.name]; // a nil pointer, slice or map
    else define(out, field.name, decoded);
  }
  return out;
}

function decodeBytes(node: JSONNode, text: string, path: string, mismatch: () => TypeError): string {
  if (node.kind === "array") {
    const bytes = node.items.map((item, i) => decodeGo({ kind: "uint8" }, item, text, `${path}[${String(i)}]`) as number);
    return Buffer.from(bytes).toString("base64");
  }
  if (node.kind !== "string") throw mismatch();
  const base64 = node.value.replace(/[\r\n]/g, "");
  if (!BASE64.test(base64)) throw new TypeError(`${path}: illegal base64 data`);
  return Buffer.from(base64, "base64").toString("base64");
}

/** The zero value of a type, as Go starts a decode: structs with every field zero. */
export function zero(type: GoType): unknown {
  switch (type.kind) {
    case "string":
      return "";
    case "bool":
      return false;
    case "struct": {
      const out: Record<string, unknown> = {};
      for (const field of type.fields) {
        const value = zero(field.type);
        if (value !== undefined) define(out, field.name, value);
      }
      return out;
    }
    case "raw":
    case "ptr":
    case "slice":
    case "map":
    case "bytes":
      return undefined;
    default:
      return 0;
  }
}

/**
 * The key Go matches a struct field name by when no field has the exact name: ASCII case folded,
 * and the two non-ASCII letters Unicode folds onto ASCII ones (K KELVIN SIGN, ſ LONG S).
 *
 * @internal
 */
export function foldName(name: string): string {
  return name.replace(/[A-Z\u212a\u017f]/g, (c) => (c === "\u212a" ? "k" : c === "\u017f" ? "s" : c.toLowerCase()));
}

/** Sets a member as an own property; `__proto__` too, which plain assignment would not. */
function define(node: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  else node[key] = value;
}

// A typed value written as encoding/json writes the Go value: struct fields in declaration order
// with omitempty, maps sorted, `[]byte` as base64, a RawExtension as its compacted text.
import { goRawJSON, marshalGoJSON } from "../../meta/go-json.js";
import type { GoType } from "./type.js";

/**
 * Returns the JSON Go writes for `value` held as `type`; `raw(value, path)` gives the text of a
 * `RawExtension` (or `undefined` to write the value as JSON).
 *
 * @throws `TypeError` for a value Go could not hold in that type.
 * @internal
 */
export function encodeGo(type: GoType, value: unknown, raw: (value: unknown, path: string) => string | undefined): string {
  return marshalGoJSON(encodable(type, value, "value", raw));
}

function encodable(type: GoType, value: unknown, path: string, raw: (value: unknown, path: string) => string | undefined): unknown {
  const wrong = (): TypeError => new TypeError(`${path}: ${typeof value} cannot be held in a Go ${type.kind}`);
  switch (type.kind) {
    case "string":
    case "bytes":
      if (value === undefined || value === null) return type.kind === "string" ? "" : null;
      if (typeof value !== "string") throw wrong();
      return value;
    case "bool":
      if (value === undefined || value === null) return false;
      if (typeof value !== "boolean") throw wrong();
      return value;
    case "int32":
    case "int64":
    case "uint8":
      if (value === undefined || value === null) return 0;
      if (typeof value !== "number" || !Number.isInteger(value)) throw wrong();
      return value;
    case "raw": {
      if (value === undefined || value === null) return null;
      const text = raw(value, path);
      return text === undefined ? value : goRawJSON(text);
    }
    case "ptr":
      return value === undefined || value === null ? null : encodable(type.elem, value, path, raw);
    case "slice":
      if (value === undefined || value === null) return null;
      if (!Array.isArray(value)) throw wrong();
      return value.map((item, i) => encodable(type.elem, item, `${path}[${String(i)}]`, raw));
    case "map":
      if (value === undefined || value === null) return null;
      if (typeof value !== "object" || Array.isArray(value)) throw wrong();
      return new Map(Object.entries(value).map(([key, item]) => [key, encodable(type.elem, item, `${path}.${key}`, raw)]));
    case "struct": {
      if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) throw wrong();
      const source = (value ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const field of type.fields) {
        const item = Object.hasOwn(source, field.name) ? source[field.name] : undefined;
        if (field.omitempty && isEmpty(field.type, item)) continue;
        Object.defineProperty(out, field.name, { value: encodable(field.type, item, `${path}.${field.name}`, raw), enumerable: true });
      }
      return out;
    }
    case "quantity":
    case "time":
      throw new TypeError(`${path}: ${type.kind} is not encoded here`);
  }
}

/** Go's `isEmptyValue` on the value `item` would decode to. */
function isEmpty(type: GoType, item: unknown): boolean {
  if (item === undefined || item === null) return type.kind !== "struct" && type.kind !== "raw";
  switch (type.kind) {
    case "string":
    case "bytes":
      return item === "";
    case "bool":
      return item === false;
    case "int32":
    case "int64":
    case "uint8":
      return item === 0;
    case "slice":
      return Array.isArray(item) && item.length === 0;
    case "map":
      return typeof item === "object" && Object.keys(item).length === 0;
    default:
      return false;
  }
}

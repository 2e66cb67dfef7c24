// What a Go struct holds of a JSON object: decode a value into a described Go type and write it
// back as encoding/json does. Used to send the patch controller-runtime's client.MergeFrom sends.
import { quantityString } from "../../meta/index.js";
import type { GoField, GoType } from "../../internal/go/index.js";
import { goTimeJSON } from "./go-time.js";

/** The JSON Go writes for a decoded value, and whether `omitempty` drops it (Go's `isEmptyValue`). */
type Encoded = readonly [json: unknown, empty: boolean];

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Decodes `value` (JSON) into `type` and returns what Go's `json.Marshal` writes for the result:
 * unknown struct fields dropped, zero values of `omitempty` fields left out, absent non-`omitempty`
 * fields written as their zero value, quantities and times in their canonical text, `null` list
 * items as zero values. A value Go could not decode into the type is returned as it is, for the
 * server to judge.
 *
 * @internal
 */
export function goRoundTrip(type: GoType, value: unknown): unknown {
  return encode(type, value)[0];
}

function encode(type: GoType, value: unknown): Encoded {
  const absent = value === undefined || value === null;
  switch (type.kind) {
    case "string":
      return absent ? ["", true] : typeof value === "string" ? [value, value === ""] : [value, false];
    case "bool":
      return absent ? [false, true] : typeof value === "boolean" ? [value, !value] : [value, false];
    case "int32":
    case "int64":
      if (absent) return [0, true];
      // Any other value, in range or not, is written as it came (the server judges what Go cannot
      // hold); only zero (`-0` too) is empty, and written `0`.
      return value === 0 ? [0, true] : [value, false];
    case "quantity":
      return [absent ? "0" : canonicalQuantity(value), false];
    case "time":
      return [absent ? null : timeOrRaw(value), false];
    case "raw":
    case "uint8":
    case "bytes":
      return [absent ? null : value, false]; // not in the CRD types: kept as is
    case "ptr":
      return absent ? [null, true] : [encode(type.elem, value)[0], false];
    case "slice":
      if (absent) return [null, true];
      return Array.isArray(value) ? [value.map((item) => encode(type.elem, item)[0]), value.length === 0] : [value, false];
    case "map":
      if (absent) return [null, true];
      if (!isPlainObject(value)) return [value, false];
      return [mapValues(value, type.elem), Object.keys(value).length === 0];
    case "struct":
      if (absent) return [struct(type.fields, {}), false];
      return isPlainObject(value) ? [struct(type.fields, value), false] : [value, false];
  }
}

function struct(fields: readonly GoField[], value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const [json, empty] = encode(field.type, Object.hasOwn(value, field.name) ? value[field.name] : undefined);
    if (!(field.omitempty && empty)) define(out, field.name, json);
  }
  return out;
}

function mapValues(value: Record<string, unknown>, elem: GoType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) define(out, key, encode(elem, item)[0]);
  return out;
}

function timeOrRaw(value: unknown): unknown {
  const time = goTimeJSON(value);
  return time === undefined ? value : time;
}

function canonicalQuantity(value: unknown): unknown {
  if (typeof value !== "string" && typeof value !== "number") return value;
  try {
    return quantityString(value);
  } catch {
    return value; // Go cannot hold it: the server refuses it
  }
}

/** Sets a member as an own property, even for a key like `__proto__`. */
function define(node: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

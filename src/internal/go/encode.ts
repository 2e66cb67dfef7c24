// A typed value written as encoding/json writes the Go value: struct fields in declaration order
// with omitempty, maps sorted, `[]byte` as base64, a RawExtension as its compacted text.
import type { GoType } from "./go-type.js";
import { goRawJSON, marshalGoJSON } from "./json-marshal.js";

/**
 * Returns the JSON Go writes for `value` held as `type`; `raw(value, path)` gives the text of a
 * `RawExtension` (or `undefined` to write the value as JSON).
 *
 * @throws `TypeError` for a value Go could not hold in that type.
 * @internal
 */
export function encodeGo(
  type: GoType,
  value: unknown,
  raw: (value: unknown, path: string) => string | undefined,
  options: EncodeOptions = {},
): string {
  return marshalGoJSON(encodable(type, value, options.root ?? "value", { raw, ...options }));
}

/** What {@link encodeGo} needs beyond the table. */
export interface EncodeOptions {
  /** The name of the whole value in errors (`value`). */
  readonly root?: string;
  /** The text of a `resource.Quantity` (none: a quantity is refused). */
  readonly quantity?: (value: string | number | bigint) => string;
  /** A struct member the table does not name: skipped (the default) or refused. */
  readonly unknownFields?: "skip" | "refuse";
}

type Hooks = EncodeOptions & { readonly raw: (value: unknown, path: string) => string | undefined };

/**
 * A value Go could not hold in the type the table gives it (or, refusing unknown fields, a member
 * the table does not name: `goKind` `undefined`).
 *
 * @internal
 */
export class GoEncodeError extends TypeError {
  /** Where, from the root name. */
  readonly path: string;
  /** The value refused. */
  readonly value: unknown;
  /** The kind of Go type it was refused for; `undefined` for a member the table does not name. */
  readonly goKind: GoType["kind"] | undefined;
  constructor(path: string, value: unknown, goKind: GoType["kind"] | undefined) {
    super(goKind === undefined ? `${path}: not a field of the Go struct` : `${path}: ${typeof value} cannot be held in a Go ${goKind}`);
    this.path = path;
    this.value = value;
    this.goKind = goKind;
  }
}

function encodable(type: GoType, value: unknown, path: string, hooks: Hooks): unknown {
  const wrong = (): TypeError => new GoEncodeError(path, value, type.kind);
  const raw = hooks.raw;
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
      if (type.kind === "int64" && type.safe === true && !Number.isSafeInteger(value)) throw wrong();
      return value;
    case "raw": {
      if (value === undefined || value === null) return null;
      const text = raw(value, path);
      return text === undefined ? value : goRawJSON(text);
    }
    case "ptr":
      return value === undefined || value === null ? null : encodable(type.elem, value, path, hooks);
    case "slice":
      if (value === undefined || value === null) return null;
      if (!Array.isArray(value)) throw wrong();
      return value.map((item, i) => encodable(type.elem, item, `${path}[${String(i)}]`, hooks));
    case "map":
      if (value === undefined || value === null) return null;
      if (typeof value !== "object" || Array.isArray(value)) throw wrong();
      return new Map(Object.entries(value).map(([key, item]) => [key, encodable(type.elem, item, `${path}.${key}`, hooks)]));
    case "struct": {
      if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) throw wrong();
      const source = (value ?? {}) as Record<string, unknown>;
      if (hooks.unknownFields === "refuse")
        for (const key of Object.keys(source))
          if (source[key] !== undefined && !type.fields.some((f) => f.name === key))
            throw new GoEncodeError(`${path}.${key}`, source[key], undefined);
      const out: Record<string, unknown> = {};
      for (const field of type.fields) {
        const item = Object.hasOwn(source, field.name) ? source[field.name] : undefined;
        if (field.omitempty && isEmpty(field.type, item)) continue;
        Object.defineProperty(out, field.name, { value: encodable(field.type, item, `${path}.${field.name}`, hooks), enumerable: true });
      }
      return out;
    }
    case "quantity":
      if (hooks.quantity === undefined) break;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint") throw wrong();
      return hooks.quantity(value);
    case "time":
      break;
  }
  throw new TypeError(`${path}: ${type.kind} is not encoded here`);
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

// The Go table of a zod schema, computed: the schema is the one definition of a wire object, and
// the typed encoder walks the table derived from it.
import { WRAPPERS, asSchema, type SchemaLike } from "../schema/zod-def.js";
import type { GoTag, GoTagLookup } from "./go-tag.js";
import { BOOL, INT64_SAFE, STRING, map, ptr, slice, type GoField, type GoType } from "./go-type.js";

/**
 * The Go type encoding/json sees for `schema`: an object is a struct whose fields follow the
 * shape's key order (or its tag's `fields`), tagged `omitempty` unless its tag says `always`; an array or a tuple is a
 * slice, a record a map, a union of objects one struct of all their fields, a string (or string
 * literal or enum) a `string`, a boolean a `bool`, an integer an `int64` held as a number. A tag's
 * `type` stands for any other; `tagOf` finds the tags (a zod registry's `get`).
 *
 * @throws `TypeError` for a schema with no Go type and no tag giving one.
 * @internal
 */
export function goTypeOf(source: object, tagOf: GoTagLookup): GoType {
  const tag = (schema: SchemaLike): GoTag => tagOf(schema) ?? {};
  const typeOf = (schema: SchemaLike, path: string): GoType => withTag(tag(schema), () => walk(schema, path));

  function walk(schema: SchemaLike, path: string): GoType {
    const def = schema.def;
    if (WRAPPERS.has(def.type) && def.innerType !== undefined) return typeOf(def.innerType, path);
    switch (def.type) {
      case "string":
      case "enum":
        return STRING;
      case "literal":
        if (def.values?.every((v) => typeof v === "string") === true) return STRING;
        if (def.values?.every((v) => typeof v === "boolean") === true) return BOOL;
        break;
      case "boolean":
        return BOOL;
      case "number":
        if (def.format === "safeint") return INT64_SAFE;
        break;
      case "array":
        if (def.element !== undefined) return slice(typeOf(def.element, `${path}[]`));
        break;
      case "tuple":
        if (def.items !== undefined && def.items.length > 0 && def.rest == null)
          return slice(def.items.map((item) => typeOf(item, `${path}[]`)).reduce((a, b) => merge(a, b, path)));
        break;
      case "union":
        if (def.options !== undefined && def.options.length > 0)
          return def.options.map((option) => typeOf(option, path)).reduce((a, b) => merge(a, b, path));
        break;
      case "record":
        if (def.valueType !== undefined) return map(typeOf(def.valueType, `${path}{}`));
        break;
      case "object": {
        const own = Object.entries(def.shape ?? {}).map(([name, field]) => goField(name, field, `${path}.${name}`));
        return { kind: "struct", fields: inGoOrder(own, tag(schema).fields, path) };
      }
    }
    throw new TypeError(`${path}: a zod ${def.type} has no Go type; tag it with goTag(schema, { type })`);
  }

  /** A struct field: its tag may sit on the field's schema or on any wrapper of it. */
  function goField(name: string, schema: SchemaLike, path: string): GoField {
    let always = false;
    for (let s: SchemaLike | undefined = schema; s !== undefined; s = WRAPPERS.has(s.def.type) ? s.def.innerType : undefined)
      always ||= tag(s).always === true;
    return { name, type: typeOf(schema, path), omitempty: !always };
  }

  return typeOf(asSchema(source), "value");
}

/** The shape's fields in the order a tag's `fields` gives, with its Go-only fields. */
function inGoOrder(own: readonly GoField[], order: GoTag["fields"], path: string): readonly GoField[] {
  if (order === undefined) return own;
  const left = new Map(own.map((field) => [field.name, field]));
  const fields = order.map((entry) => {
    if (typeof entry !== "string") {
      if (own.some((field) => field.name === entry.name)) throw new TypeError(`${path}.${entry.name}: a Go-only field the shape has`);
      return entry;
    }
    const field = left.get(entry);
    if (field === undefined) throw new TypeError(`${path}.${entry}: not a field of the shape, or named twice`);
    left.delete(entry);
    return field;
  });
  if (left.size > 0) throw new TypeError(`${path}: Go's field order leaves out ${[...left.keys()].join(", ")}`);
  return fields;
}

function withTag(tag: GoTag, inner: () => GoType): GoType {
  const type = tag.type ?? inner();
  return tag.ptr === true ? ptr(type) : type;
}

/**
 * One Go type for two options (a union's, a tuple's items): the same type, or structs whose fields
 * are merged, a field new in `b` going after those of `a` (so list the options in Go's order).
 */
function merge(a: GoType, b: GoType, path: string): GoType {
  if (a.kind === "struct" && b.kind === "struct") {
    const fields = [...a.fields];
    for (const field of b.fields) {
      const i = fields.findIndex((f) => f.name === field.name);
      if (i < 0) fields.push(field);
      else if (fields[i]?.omitempty !== field.omitempty) throw new TypeError(`${path}.${field.name}: options disagree on omitempty`);
      else fields[i] = { ...field, type: merge(fields[i].type, field.type, `${path}.${field.name}`) };
    }
    return { kind: "struct", fields };
  }
  if ((a.kind === "ptr" && b.kind === "ptr") || (a.kind === "slice" && b.kind === "slice") || (a.kind === "map" && b.kind === "map"))
    return { kind: a.kind, elem: merge(a.elem, b.elem, path) };
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  throw new TypeError(`${path}: options with different Go types (${a.kind}, ${b.kind})`);
}

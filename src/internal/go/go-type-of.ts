// The Go table of a zod schema, computed: the schema is the one definition of a wire object, and
// the typed encoder walks the table derived from it.
import { WRAPPERS, asSchema, type SchemaLike } from "../schema/zod-def.js";
import { goTagOf, type GoTag } from "./go-tag.js";
import { BOOL, INT64_SAFE, STRING, map, ptr, slice, type GoField, type GoType } from "./go-type.js";

const cache = new WeakMap<SchemaLike, GoType>();

/**
 * The Go type encoding/json sees for `schema`: an object is a struct whose fields follow the
 * shape's key order, tagged `omitempty` unless {@link goTag} says `always`; an array is a slice, a
 * record a map, a string (or string literal or enum) a `string`, a boolean a `bool`, an integer an
 * `int64` held as a number. A tag's `type` stands for any other.
 *
 * @throws `TypeError` for a schema with no Go type and no tag giving one.
 * @internal
 */
export function goTypeOf(source: object): GoType {
  const schema = asSchema(source);
  let type = cache.get(schema);
  if (type === undefined) {
    type = withTag(goTagOf(schema), () => walk(schema, "value"));
    cache.set(schema, type);
  }
  return type;
}

function withTag(tag: GoTag, inner: () => GoType): GoType {
  const type = tag.type ?? inner();
  return tag.ptr === true ? ptr(type) : type;
}

function walk(schema: SchemaLike, path: string): GoType {
  const def = schema.def;
  if (WRAPPERS.has(def.type) && def.innerType !== undefined) return goTypeOf(def.innerType);
  switch (def.type) {
    case "string":
    case "enum":
      return STRING;
    case "literal":
      if (def.values?.every((v) => typeof v === "string") === true) return STRING;
      break;
    case "boolean":
      return BOOL;
    case "number":
      if (def.format === "safeint") return INT64_SAFE;
      break;
    case "array":
      if (def.element !== undefined) return slice(goTypeOf(def.element));
      break;
    case "record":
      if (def.valueType !== undefined) return map(goTypeOf(def.valueType));
      break;
    case "object":
      return { kind: "struct", fields: Object.entries(def.shape ?? {}).map(([name, field]) => goField(name, field)) };
  }
  throw new TypeError(`${path}: a zod ${def.type} has no Go type; tag it with goTag(schema, { type })`);
}

/** A struct field: its tag may sit on the field's schema or on any wrapper of it. */
function goField(name: string, schema: SchemaLike): GoField {
  let tag: GoTag = {};
  for (let s: SchemaLike | undefined = schema; s !== undefined; s = WRAPPERS.has(s.def.type) ? s.def.innerType : undefined)
    tag = { ...goTagOf(s), ...tag };
  return { name, type: goTypeOf(schema), omitempty: tag.always !== true };
}

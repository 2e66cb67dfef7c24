// Go types as encoding/json sees them, described as data: the patch helpers read JSON the way
// Go's typed structs hold it, the admission decoder refuses what Go's decoder refuses.

/** A Go type, as far as encoding/json sees it. */
export type GoType =
  | { readonly kind: "string" | "bool" | "int32" | "uint8" | "quantity" | "time" | "raw" | "bytes" }
  | { readonly kind: "int64"; readonly safe?: true }
  | { readonly kind: "ptr" | "slice" | "map"; readonly elem: GoType }
  | { readonly kind: "struct"; readonly fields: readonly GoField[] };

/** One struct field: its json name, type, and whether the tag says `omitempty`. */
export interface GoField {
  readonly name: string;
  readonly type: GoType;
  readonly omitempty: boolean;
}

/** `string` and named string types. */
export const STRING: GoType = { kind: "string" };
/** `bool`. */
export const BOOL: GoType = { kind: "bool" };
/** `int32`. */
export const INT32: GoType = { kind: "int32" };
/** `int64`. */
export const INT64: GoType = { kind: "int64" };
/** `int64` held as a JavaScript `number`: a value past ±(2^53 − 1) is refused like a wrong type. */
export const INT64_SAFE: GoType = { kind: "int64", safe: true };
/** `metav1.Time`. */
export const TIME: GoType = { kind: "time" };
/** `resource.Quantity`. */
export const QUANTITY: GoType = { kind: "quantity" };
/** `runtime.RawExtension` or `metav1.FieldsV1`: JSON kept as written. */
export const RAW: GoType = { kind: "raw" };
/** `[]byte`: base64 text on the wire. */
export const BYTES: GoType = { kind: "bytes" };
/** `*T`. */
export const ptr = (elem: GoType): GoType => ({ kind: "ptr", elem });
/** `[]T`. */
export const slice = (elem: GoType): GoType => ({ kind: "slice", elem });
/** `map[string]T`. */
export const map = (elem: GoType): GoType => ({ kind: "map", elem });
/** A struct with these fields, embedded structs already inlined. */
export const struct = (...fields: GoField[]): GoType => ({ kind: "struct", fields });
/** A field tagged `omitempty`. */
export const oe = (name: string, type: GoType): GoField => ({ name, type, omitempty: true });
/** A field written always. */
export const always = (name: string, type: GoType): GoField => ({ name, type, omitempty: false });
/** `metav1.TypeMeta`, inlined. */
export const TYPE_META: readonly GoField[] = [oe("kind", STRING), oe("apiVersion", STRING)];

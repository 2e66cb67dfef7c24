// Imitating Go, in one place: encoding/json's encoder, decoder and indent, the strconv functions
// the contract uses, Go's integer limits, and the Go types described as data that the typed
// encoder and decoder walk. Every entry point reaches this folder through this file only (the
// lint fence in eslint.config.js keeps it so); none of it is public API unless an entry point
// re-exports it.
export { decodeGo, foldName, GoDecodeError, type RawText } from "./decode.js";
export { encodeGo, GoEncodeError, type EncodeOptions } from "./encode.js";
export {
  BOOL,
  BYTES,
  INT32,
  INT64,
  INT64_SAFE,
  QUANTITY,
  RAW,
  STRING,
  TIME,
  TYPE_META,
  always,
  map,
  oe,
  ptr,
  slice,
  struct,
  type GoField,
  type GoType,
} from "./go-type.js";
export { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, inIntRange } from "./int-range.js";
export { indentGoJSON } from "./json-indent.js";
export { goRawJSON, marshalGoJSON, marshalGoMapEntries, marshalGoMapJSON } from "./json-marshal.js";
export { goJSONString } from "./json-quote.js";
export { MAX_NESTING_DEPTH, parseFirstJSONValue, readFirstJSONValue, type JSONNode } from "./json-tree.js";
export { unmarshalGo, type GoJSONReader, type UnmarshalOptions } from "./unmarshal.js";
export { atoi, formatInt, int64ToNumberOrBigInt, parseBool, parseInt32, parseInt64, shortDecimal, toGoInteger } from "./strconv.js";
export type { GoTag, GoTagLookup } from "./go-tag.js";
export { goTypeOf } from "./go-type-of.js";
export { goTypeSource } from "./go-type-source.js";

// Typed decoding of a whole document for the OCI manifests, snapshot configs and export envelopes:
// the text read as `json.Unmarshal` (one value) or `json.Decoder` (the first value) reads it, then
// `decodeGo` over the Go-type table, with the errors those callers have always reported
// (ERR_SNAPSHOT_FORMAT, `json: cannot unmarshal ... into Go struct field ...`).
import { CocoonError } from "../../errors.js";
import { decodeGo, GoDecodeError } from "./decode.js";
import type { GoType } from "./go-type.js";
import { readFirstJSONValue, type JSONNode } from "./json-tree.js";

/** How the text holds the value: alone (`json.Unmarshal`) or first, the rest ignored (`json.Decoder`). */
export type GoJSONReader = "unmarshal" | "decoder";

/**
 * Decodes `raw` into `type` as Go's `json.Unmarshal` (or `json.Decoder.Decode`) fills a Go value:
 * invalid UTF-8 becomes U+FFFD, a BOM is bad syntax, a top-level `null` is the zero value.
 *
 * @throws `CocoonError` `ERR_SNAPSHOT_FORMAT`: `unexpected end of JSON input` (`unexpected EOF`, or
 * `EOF` for a blank text, from the decoder), `invalid JSON: <V8's reason>`, or
 * `json: cannot unmarshal <kind> into Go struct field <path> of type <type>`.
 * @internal
 */
export function unmarshalGo(type: GoType, raw: Uint8Array | string, root: string, options: UnmarshalOptions = {}): unknown {
  const text = typeof raw === "string" ? raw : new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(raw);
  const tree = readTree(text, options.reader ?? "unmarshal");
  try {
    return decodeGo(type, tree, text, root);
  } catch (err) {
    if (!(err instanceof GoDecodeError)) throw err;
    const jsonKind = JSON_KIND[err.jsonKind] ?? err.jsonKind;
    const path = err.path === root ? (options.rootName ?? root) : err.path;
    const goType = GO_NAME[err.goKind] ?? err.goKind;
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", `json: cannot unmarshal ${jsonKind} into Go struct field ${path} of type ${goType}`, {
      cause: err,
    });
  }
}

/** How {@link unmarshalGo} reads and names. */
export interface UnmarshalOptions {
  /** `"unmarshal"` (the default) or `"decoder"`. */
  readonly reader?: GoJSONReader;
  /** The name of the whole value in errors, when not `root` (a root of `""` names fields bare). */
  readonly rootName?: string;
}

/** The JSON kinds as these callers have always named them (`typeof` of the parsed value). */
const JSON_KIND: Readonly<Record<string, string>> = { true: "boolean", false: "boolean" };
/** The Go types as these callers have always named them. */
const GO_NAME: Readonly<Record<string, string>> = { map: "struct" };

function readTree(text: string, reader: GoJSONReader): JSONNode {
  if (reader === "decoder" && text.trim() === "") throw syntaxError("EOF");
  let tree: JSONNode;
  try {
    tree = readFirstJSONValue(text).tree;
  } catch (err) {
    if (reader === "decoder")
      throw syntaxError((err as Error).message === "unexpected EOF" ? "unexpected EOF" : `invalid JSON: ${(err as Error).message}`, err);
    throw unmarshalSyntaxError(text, err);
  }
  if (reader === "unmarshal" && /[^ \t\n\r]/u.test(text.slice(tree.end))) throw unmarshalSyntaxError(text, undefined);
  return tree;
}

/** The error `json.Unmarshal`'s callers have always reported: V8's reason for the whole text. */
function unmarshalSyntaxError(text: string, cause: unknown): CocoonError {
  try {
    JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const position = /position (\d+)/u.exec(message);
    const atEnd = position !== null && Number(position[1]) >= text.trimEnd().length;
    if (text.trim() === "" || atEnd || /end of (JSON )?input|Unterminated/iu.test(message))
      return syntaxError("unexpected end of JSON input", err);
    return syntaxError(`invalid JSON: ${message}`, err);
  }
  return syntaxError((cause as Error).message, cause); // V8 accepts what Go refuses (nesting past Go's limit)
}

function syntaxError(message: string, cause?: unknown): CocoonError {
  return new CocoonError("ERR_SNAPSHOT_FORMAT", message, cause === undefined ? undefined : { cause });
}

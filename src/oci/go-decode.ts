import { CocoonError } from "../errors.js";

/** A JSON object as Go's decoder sees it: keys matched case-insensitively, the last match wins. */
export type GoObject = Readonly<Record<string, unknown>>;

/**
 * Parses JSON the way Go's `json.Unmarshal` accepts it: invalid UTF-8 becomes U+FFFD, a BOM or
 * trailing data is an error. Errors carry Go's wording for the common cases.
 */
export function parseGoJSON(raw: Uint8Array | string): unknown {
  const text = typeof raw === "string" ? raw : new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(raw);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CocoonError("ERR_SNAPSHOT_FORMAT", goJSONSyntaxMessage(text, err), { cause: err });
  }
}

function goJSONSyntaxMessage(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const position = /position (\d+)/u.exec(message);
  const atEnd = position !== null && Number(position[1]) >= text.trimEnd().length;
  if (text.trim() === "" || atEnd || /end of (JSON )?input|Unterminated/iu.test(message)) {
    return "unexpected end of JSON input";
  }
  return `invalid JSON: ${message}`;
}

/** Returns the member Go would decode into `field`: case-insensitive key match, last one wins, `null` counts as absent. */
export function goField(obj: GoObject, field: string): unknown {
  const folded = field.toLowerCase();
  let found: unknown;
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() === folded && obj[key] !== null) found = obj[key];
  }
  return found;
}

function typeError(value: unknown, goType: string, path: string): CocoonError {
  const jsonType = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
  return new CocoonError("ERR_SNAPSHOT_FORMAT", `json: cannot unmarshal ${jsonType} into Go struct field ${path} of type ${goType}`);
}

/** Reads a string field (`""` when absent). */
export function goString(obj: GoObject, field: string, path: string): string {
  const v = goField(obj, field);
  if (v === undefined) return "";
  if (typeof v !== "string") throw typeError(v, "string", path);
  return v;
}

/** Reads an integer field (0 when absent); a fraction or a value beyond 2^53 is refused. */
export function goInt(obj: GoObject, field: string, path: string): number {
  const v = goField(obj, field);
  if (v === undefined) return 0;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw typeError(v, "int64", path);
  return v;
}

/** Reads a boolean field (false when absent). */
export function goBool(obj: GoObject, field: string, path: string): boolean {
  const v = goField(obj, field);
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw typeError(v, "bool", path);
  return v;
}

/** Reads an object field (`undefined` when absent). */
export function goObject(obj: GoObject, field: string, path: string): GoObject | undefined {
  const v = goField(obj, field);
  if (v === undefined) return undefined;
  return asGoObject(v, path);
}

/** Checks that a decoded value is a JSON object. */
export function asGoObject(v: unknown, path: string): GoObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw typeError(v, "struct", path);
  return v as GoObject;
}

/** Reads an array field (`undefined` when absent). */
export function goArray(obj: GoObject, field: string, path: string): readonly unknown[] | undefined {
  const v = goField(obj, field);
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw typeError(v, "slice", path);
  return v as readonly unknown[];
}

/** Reads a `map[string]string` field (`undefined` when absent). */
export function goStringMap(obj: GoObject, field: string, path: string): Record<string, string> | undefined {
  const m = goObject(obj, field, path);
  if (m === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === null) continue;
    if (typeof v !== "string") throw typeError(v, "string", path);
    out[k] = v;
  }
  return out;
}

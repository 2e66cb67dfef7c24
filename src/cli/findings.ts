import type { z } from "zod";
import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import { QUANTITY_PATTERN } from "../meta/quantity.js";
import type { Manifest } from "./manifests.js";

/** A field path from an object's root: keys and list indices, as zod reports them. */
export type FieldPath = readonly PropertyKey[];

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * Formats a field path the way the API server does: `spec.toolboxes[0].name`; keys that are not
 * plain words are bracketed, as in `metadata.annotations[vm.cocoonstack.io/hibernate]`. The
 * root is `""`.
 *
 * @example
 * ```ts
 * formatFieldPath(["spec", "toolboxes", 0, "name"]); // => "spec.toolboxes[0].name"
 * ```
 */
export function formatFieldPath(path: FieldPath): string {
  let text = "";
  for (const segment of path) {
    const key = String(segment);
    if (typeof segment === "number") text += `[${key}]`;
    else if (PLAIN_KEY.test(key)) text += text === "" ? key : `.${key}`;
    else text += `[${key}]`;
  }
  return text;
}

/** Who an object says it is; `null` for whatever it leaves out (or gives as a non-string). */
export interface ObjectIdentity {
  /** `kind`. */
  readonly kind: string | null;
  /** `metadata.namespace`. */
  readonly namespace: string | null;
  /** `metadata.name`. */
  readonly name: string | null;
}

function ownString(obj: unknown, key: string): string | null {
  if (typeof obj !== "object" || obj === null || !Object.hasOwn(obj, key)) return null;
  const value = (obj as Record<string, unknown>)[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** Reads `kind`, `metadata.namespace` and `metadata.name` from any value, never throwing. */
export function identityOf(value: unknown): ObjectIdentity {
  const meta =
    typeof value === "object" && value !== null && Object.hasOwn(value, "metadata") ? (value as { metadata: unknown }).metadata : undefined;
  return { kind: ownString(value, "kind"), namespace: ownString(meta, "namespace"), name: ownString(meta, "name") };
}

/** One thing wrong with an object, located. */
export interface Finding {
  /** The field path (`spec.agent.image`); `""` for the object itself. */
  readonly path: string;
  /** The 1-based line. */
  readonly line: number;
  /** What is wrong. */
  readonly message: string;
}

/** A finding at `path` of `manifest`, on the line where that field (or its deepest present ancestor) is written. */
export function findingAt(manifest: Manifest, path: FieldPath, message: string): Finding {
  return { path: formatFieldPath(path), line: manifest.lineOf(path), message };
}

/** Says where a manifest sits in its stream: `document 2`, or `document 1, items[3]` inside a List. */
export function locationOf(manifest: Manifest): string {
  return manifest.item === undefined ? `document ${manifest.document}` : `document ${manifest.document}, items[${manifest.item}]`;
}

/**
 * Names a manifest in reports: `document 2 (CocoonSet default/demo)`, `document 1, items[3] (Pod
 * demo-0)`, or just `document 4` when it has no kind.
 */
export function describeManifest(manifest: Manifest, id: ObjectIdentity = identityOf(manifest.value)): string {
  const where = locationOf(manifest);
  if (id.kind === null) return where;
  const name = id.name === null ? "" : ` ${id.namespace === null ? "" : `${id.namespace}/`}${id.name}`;
  return `${where} (${id.kind}${name})`;
}

/** Formats a finding as one greppable line: `FILE:LINE: document N (KIND NS/NAME): PATH: MESSAGE`. */
export function formatFinding(manifest: Manifest, finding: Finding, id: ObjectIdentity = identityOf(manifest.value)): string {
  const path = finding.path === "" ? "" : `${finding.path}: `;
  return `${manifest.file}:${finding.line}: ${describeManifest(manifest, id)}: ${path}${finding.message}`;
}

/** Where a manifest comes from, as `--output json` reports it: `{ file, document }`, plus `item` inside a List. */
export function sourceOf(manifest: Manifest): { file: string; document: number; item?: number } {
  return { file: manifest.file, document: manifest.document, ...(manifest.item === undefined ? {} : { item: manifest.item }) };
}

const QUANTITY_WORDS = "must be a quantity such as 512Mi or 1.5Gi";
const MAX_SHOWN = 64;

/** Shows a value the user wrote, in a few words: `the string "two"`, `a list`; long strings are cut. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    const shown =
      value.length > MAX_SHOWN ? `${JSON.stringify(value.slice(0, MAX_SHOWN))}... (${value.length} characters)` : JSON.stringify(value);
    return `the string ${shown}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `the ${typeof value} ${String(value)}`;
  return `the ${typeof value}`;
}

/** Quotes a short string as the API server does (`"fork"`), and describes anything else. */
export function quoteValue(value: unknown): string {
  return typeof value === "string" && value.length <= MAX_SHOWN ? JSON.stringify(value) : describeValue(value);
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: "an integer",
  int: "an integer",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
};

function expectedWords(declared: JSONSchemaProps | undefined, zodExpected: string): string {
  if (declared?.["x-kubernetes-int-or-string"] === true)
    return declared.pattern === QUANTITY_PATTERN ? "a quantity such as 512Mi or 1.5Gi" : "an integer or a string";
  const type = typeof declared?.type === "string" ? declared.type : zodExpected;
  return (Object.hasOwn(TYPE_WORDS, type) ? TYPE_WORDS[type] : undefined) ?? type;
}

function bound(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, actual: unknown): string {
  const big = issue.code === "too_big";
  const limit = String(issue.code === "too_big" ? issue.maximum : issue.minimum);
  const than = `${big ? "at most" : "at least"} ${limit}`;
  if (issue.origin === "string") return `must be ${than} characters long, got ${typeof actual === "string" ? actual.length : "?"}`;
  if (issue.origin === "array") return `must have ${than} items, got ${Array.isArray(actual) ? actual.length : "?"}`;
  const exclusive = issue.inclusive === false ? (big ? `less than ${limit}` : `greater than ${limit}`) : than;
  return `must be ${exclusive}, got ${describeValue(actual)}`;
}

/**
 * Says what a zod issue means in the user's words, naming what the field takes and what it got:
 * `must be an integer, got the string "two"`, `must be a quantity such as 512Mi or 1.5Gi, got the
 * string "20 GiB"`, `Unsupported value: "fork": supported values: "clone", "run"` (the API
 * server's words). A missing field is `Required value`; messages the schema words itself (the
 * CEL rules, name checks) pass through.
 *
 * @param issue - The zod issue.
 * @param actual - The value at the issue's path, as written.
 * @param declared - The CRD schema of the field, when it has one.
 */
export function describeIssue(issue: z.core.$ZodIssue, actual: unknown, declared?: JSONSchemaProps): string {
  const quantity = declared?.pattern === QUANTITY_PATTERN;
  switch (issue.code) {
    case "invalid_type":
      return actual === undefined ? "Required value" : `must be ${expectedWords(declared, issue.expected)}, got ${describeValue(actual)}`;
    case "invalid_union":
      return quantity ? `${QUANTITY_WORDS}, got ${describeValue(actual)}` : issue.message;
    case "invalid_format":
      if (quantity) return `${QUANTITY_WORDS}, got ${describeValue(actual)}`;
      if (issue.format === "regex" && "pattern" in issue)
        return `Invalid value: ${describeValue(actual)}: must match ${issue.pattern.replace(/^\/(.*)\/$/, "$1")}`;
      return issue.message;
    case "invalid_value":
      return `Unsupported value: ${quoteValue(actual)}: supported values: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_big":
    case "too_small":
      return bound(issue, actual);
    default:
      return issue.message;
  }
}

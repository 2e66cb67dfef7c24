import type { z } from "zod";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/crd.js";
import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import { CocoonHibernationSchema } from "../apis/v1/cocoonhibernation-types.js";
import { CocoonSetSchema } from "../apis/v1/cocoonset-types.js";
import { GROUP, Kind } from "../apis/v1/groupversion-info.js";
import { isRulesNotCheckedIssue } from "../internal/rules-not-checked.js";
import { OBJECT_META_FIELDS } from "../apis/v1/object-meta-fields.js";
import { type ValidationResult, validateCocoonHibernationUpdate, validateCocoonSetUpdate } from "../apis/v1/transition-rules.js";
import type { FieldValidation } from "./args.js";
import {
  type FieldPath,
  type Finding,
  type ObjectIdentity,
  describeIssue,
  describeValue,
  findingAt,
  identityOf,
  quoteValue,
} from "./findings.js";
import type { Manifest } from "./manifests.js";

/** The fields of `metav1.ObjectMeta`: what the API server's strict decoding accepts under `metadata`. */
const OBJECT_META_FIELD_SET: ReadonlySet<string> = new Set(OBJECT_META_FIELDS);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema of field `key` of an object schema; own properties only, so `constructor` is not a field. */
function fieldSchema(schema: JSONSchemaProps, key: PropertyKey): JSONSchemaProps | undefined {
  const { properties } = schema;
  if (properties !== undefined && Object.hasOwn(properties, key)) return properties[key as string];
  return schema.additionalProperties;
}

function walk(value: unknown, schema: JSONSchemaProps, path: FieldPath, found: FieldPath[]): void {
  if (Array.isArray(value)) {
    const { items } = schema;
    if (items !== undefined) value.forEach((item, i) => walk(item, items, [...path, i], found));
    return;
  }
  if (!isPlainObject(value) || schema["x-kubernetes-preserve-unknown-fields"] === true) return;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = fieldSchema(schema, key);
    if (childSchema === undefined) {
      if (schema.properties !== undefined) found.push([...path, key]);
    } else if (path.length === 0 && key === "metadata") {
      if (isPlainObject(child))
        for (const metaKey of Object.keys(child)) if (!OBJECT_META_FIELD_SET.has(metaKey)) found.push(["metadata", metaKey]);
    } else {
      walk(child, childSchema, [...path, key], found);
    }
  }
}

/**
 * Lists the fields of `value` that the CRD schema does not declare, in document order. The API
 * server drops them silently (pruning), but rejects the request under strict field validation,
 * kubectl's default: a typo like `spec.agent.imag` is caught here instead of being lost, and so
 * is a field named like an `Object.prototype` member (`spec.agent.constructor`).
 * `metadata` is checked against `ObjectMeta`'s fields, one level deep.
 *
 * @param value - The object as written.
 * @param schema - The CRD's `openAPIV3Schema`.
 * @example
 * ```ts
 * unknownFields({ spec: { agent: { imag: "x" } } }, cocoonSetCRD.spec.versions[0].schema.openAPIV3Schema);
 * // => [["spec", "agent", "imag"]]
 * ```
 */
export function unknownFields(value: unknown, schema: JSONSchemaProps): FieldPath[] {
  const found: FieldPath[] = [];
  walk(value, schema, [], found);
  return found;
}

/** The CRD schema of the field at `path` (list indices step into `items`), or `undefined` when it has none. */
function schemaAt(schema: JSONSchemaProps, path: FieldPath): JSONSchemaProps | undefined {
  let current: JSONSchemaProps | undefined = schema;
  for (const segment of path)
    current = current === undefined ? undefined : typeof segment === "number" ? current.items : fieldSchema(current, segment);
  return current;
}

/** The verdict on one object: valid, invalid with its errors, or skipped (not a cocoon kind). */
export interface CheckResult extends ObjectIdentity {
  /** Where the object was read from. */
  readonly manifest: Manifest;
  /** `false` only when there are errors; skipped objects count as valid. */
  readonly valid: boolean;
  /** `true` for kinds this tool does not check (they never fail the run). */
  readonly skipped: boolean;
  /** Why the object was skipped. */
  readonly reason?: string;
  /** The errors, by line. */
  readonly errors: readonly Finding[];
  /** What `--validate=warn` reports instead of failing: unknown fields and duplicate keys. */
  readonly warnings: readonly Finding[];
  /** The object it was checked against as an update (`--old`). */
  readonly old?: Manifest;
  /** The object as the API server would store it (defaults applied, unknown fields dropped), when valid. */
  readonly object?: unknown;
}

interface KindRules {
  readonly schema: z.ZodType;
  readonly openAPI: JSONSchemaProps | undefined;
  readonly update: (oldObject: never, newObject: never) => ValidationResult;
}

const RULES: ReadonlyMap<unknown, KindRules> = new Map([
  [
    Kind.CocoonSet,
    { schema: CocoonSetSchema, openAPI: cocoonSetCRD.spec.versions[0]?.schema.openAPIV3Schema, update: validateCocoonSetUpdate },
  ],
  [
    Kind.CocoonHibernation,
    {
      schema: CocoonHibernationSchema,
      openAPI: cocoonHibernationCRD.spec.versions[0]?.schema.openAPIV3Schema,
      update: validateCocoonHibernationUpdate,
    },
  ],
]);

/** Why objects of other kinds are skipped. */
export const SKIP_REASON = `not a ${Kind.CocoonSet} or ${Kind.CocoonHibernation}`;

/** The API server's request body limit (`MaxRequestBodyBytes`): a bigger object never reaches validation. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

function valueAt(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const key of path) {
    current =
      typeof current === "object" && current !== null && Object.hasOwn(current, key)
        ? (current as Record<PropertyKey, unknown>)[key]
        : undefined;
  }
  return current;
}

/** A finding about the object as a whole, on its first line. */
function rootFinding(manifest: Manifest, message: string): Finding {
  return { path: "", line: manifest.line, message };
}

function typeMetaErrors(manifest: Manifest, obj: Record<string, unknown>): Finding[] {
  return (["apiVersion", "kind"] as const)
    .filter((key) => typeof obj[key] !== "string" || obj[key] === "")
    .map((key) => findingAt(manifest, [key], "Required value"));
}

/** The errors the schema and the transition rules find, in the user's words. */
function schemaErrors(manifest: Manifest, rules: KindRules, old: Manifest | undefined): { errors: Finding[]; stored?: unknown } {
  const { value } = manifest;
  const parsed = rules.schema.safeParse(value);
  const issues = parsed.success ? [] : parsed.error.issues;
  // The server's root notice that the CEL rules were skipped adds nothing to the errors that caused
  // it; it does say the transition rules are skipped too, as the server skips them.
  const rulesSkipped = issues.some(isRulesNotCheckedIssue);
  const errors = issues
    .filter((issue) => !isRulesNotCheckedIssue(issue))
    .map((issue) =>
      findingAt(
        manifest,
        issue.path,
        describeIssue(issue, valueAt(value, issue.path), rules.openAPI && schemaAt(rules.openAPI, issue.path)),
      ),
    );
  if (old !== undefined && !rulesSkipped) {
    const oldParsed = rules.schema.safeParse(old.value);
    const update = rules.update((oldParsed.success ? oldParsed.data : old.value) as never, (parsed.success ? parsed.data : value) as never);
    if (!update.success) errors.push(...update.issues.map(({ path, message }) => findingAt(manifest, path, message)));
  }
  return parsed.success ? { errors, stored: parsed.data } : { errors };
}

function checkKind(
  manifest: Manifest,
  rules: KindRules,
  old: Manifest | undefined,
  mode: FieldValidation,
): { errors: Finding[]; warnings: Finding[]; stored?: unknown } {
  const size = Buffer.byteLength(JSON.stringify(manifest.value));
  if (size > MAX_REQUEST_BYTES) {
    const message = `too large: ${size} bytes as JSON, the API server accepts at most ${MAX_REQUEST_BYTES} per request`;
    return { errors: [rootFinding(manifest, message)], warnings: [] };
  }
  const { errors, stored } = schemaErrors(manifest, rules, old);
  const fieldIssues = [
    ...(rules.openAPI === undefined ? [] : unknownFields(manifest.value, rules.openAPI)).map((path) =>
      findingAt(manifest, path, "unknown field"),
    ),
    ...manifest.duplicateKeyLines.map((line) => ({ path: "", line, message: "duplicate field" })),
  ];
  if (mode === "strict") errors.push(...fieldIssues);
  return { errors, warnings: mode === "warn" ? fieldIssues : [], ...(stored === undefined ? {} : { stored }) };
}

/**
 * Checks one object the way the API server would on create, or on update when `old` is given:
 * the request size, the zod schema (defaults, enums, bounds, patterns, the CEL rule), unknown
 * fields and duplicate keys as `mode` says (kubectl's `--validate`), and, on update, the
 * transition rules. Objects of other kinds are skipped; anything without `apiVersion`/`kind` is
 * invalid.
 */
export function checkManifest(manifest: Manifest, old?: Manifest, mode: FieldValidation = "strict"): CheckResult {
  const { value } = manifest;
  const id = identityOf(value);
  const verdict = (errors: Finding[], warnings: Finding[] = [], object?: unknown): CheckResult => {
    const sorted = [...errors].sort((a, b) => a.line - b.line);
    const base = {
      ...id,
      manifest,
      valid: sorted.length === 0,
      skipped: false,
      errors: sorted,
      warnings: [...warnings].sort((a, b) => a.line - b.line),
    };
    return { ...base, ...(old === undefined ? {} : { old }), ...(sorted.length === 0 && object !== undefined ? { object } : {}) };
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return verdict([
      rootFinding(manifest, `expected a Kubernetes object (a mapping with apiVersion and kind), got ${describeValue(value)}`),
    ]);
  }
  const obj = value as Record<string, unknown>;
  const rules = RULES.get(id.kind);
  if (rules === undefined) {
    const missing = typeMetaErrors(manifest, obj);
    const ours = typeof obj.apiVersion === "string" && obj.apiVersion.startsWith(`${GROUP}/`);
    if (missing.length > 0 || ours) {
      const supported = `supported values: "${Kind.CocoonSet}", "${Kind.CocoonHibernation}"`;
      const kindError = findingAt(manifest, ["kind"], `Unsupported value: ${quoteValue(obj.kind)}: ${supported}`);
      return verdict(missing.length > 0 ? missing : [kindError]);
    }
    return { ...id, manifest, valid: true, skipped: true, reason: SKIP_REASON, errors: [], warnings: [] };
  }
  try {
    const { errors, warnings, stored } = checkKind(manifest, rules, old, mode);
    return verdict(errors, warnings, stored);
  } catch (err) {
    // A bug of ours must not end the run: it is this object's finding, and the run goes on.
    return verdict([rootFinding(manifest, `cannot be checked (a bug in cocoon-common, please report it): ${String(err)}`)]);
  }
}

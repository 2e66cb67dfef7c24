import type { z } from "zod";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/crd.js";
import type { CustomResourceDefinition } from "../apis/v1/crd-types.js";
import { CocoonHibernationSchema } from "../apis/v1/cocoonhibernation-types.js";
import { CocoonSetSchema } from "../apis/v1/cocoonset-types.js";
import { GROUP, Kind } from "../apis/v1/groupversion-info.js";
import { RULES_NOT_CHECKED_MESSAGE } from "../apis/v1/internal/rule-gate.js";
import { type ValidationResult, validateCocoonHibernationUpdate, validateCocoonSetUpdate } from "../apis/v1/transition-rules.js";
import { type FieldPath, formatFieldPath } from "./field-path.js";
import { type Finding, type ObjectIdentity, identityOf } from "./identity.js";
import { unknownFields } from "./unknown-fields.js";
import type { Manifest } from "./yaml-stream.js";

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
  /** The object it was checked against as an update (`--old`). */
  readonly old?: Manifest;
  /** The object as the API server would store it (defaults applied, unknown fields dropped), when valid. */
  readonly object?: unknown;
}

interface KindRules {
  readonly schema: z.ZodType;
  readonly crd: CustomResourceDefinition;
  readonly update: (oldObject: never, newObject: never) => ValidationResult;
}

const RULES: Readonly<Record<string, KindRules>> = {
  [Kind.CocoonSet]: { schema: CocoonSetSchema, crd: cocoonSetCRD, update: validateCocoonSetUpdate },
  [Kind.CocoonHibernation]: { schema: CocoonHibernationSchema, crd: cocoonHibernationCRD, update: validateCocoonHibernationUpdate },
};

/** Why objects of other kinds are skipped. */
export const SKIP_REASON = `not a ${Kind.CocoonSet} or ${Kind.CocoonHibernation}`;

function valueAt(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const key of path) current = typeof current === "object" && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined;
  return current;
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

function typeMetaErrors(manifest: Manifest, obj: Record<string, unknown>): Finding[] {
  return (["apiVersion", "kind"] as const)
    .filter((key) => typeof obj[key] !== "string" || obj[key] === "")
    .map((key) => ({ path: key, line: manifest.lineOf([key]), message: "Required value" }));
}

/**
 * Checks one object the way the API server would on create, or on update when `old` is given:
 * the zod schema (defaults, enums, bounds, patterns, the CEL rule), unknown fields against the
 * CRD schema, and, on update, the transition rules. Objects of other kinds are skipped; anything
 * without `apiVersion`/`kind` is invalid.
 */
export function checkManifest(manifest: Manifest, old?: Manifest): CheckResult {
  const { value } = manifest;
  const id = identityOf(value);
  const verdict = (errors: Finding[], object?: unknown): CheckResult => {
    const sorted = [...errors].sort((a, b) => a.line - b.line);
    const base = { ...id, manifest, valid: sorted.length === 0, skipped: false, errors: sorted };
    return { ...base, ...(old === undefined ? {} : { old }), ...(sorted.length === 0 && object !== undefined ? { object } : {}) };
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const message = `expected a Kubernetes object (a mapping with apiVersion and kind), got ${typeName(value)}`;
    return verdict([{ path: "", line: manifest.line, message }]);
  }
  const obj = value as Record<string, unknown>;
  const rules = typeof obj.kind === "string" ? RULES[obj.kind] : undefined;
  if (rules === undefined) {
    const missing = typeMetaErrors(manifest, obj);
    const ours = typeof obj.apiVersion === "string" && obj.apiVersion.startsWith(`${GROUP}/`);
    if (missing.length > 0 || ours) {
      const supported = `supported values: "${Kind.CocoonSet}", "${Kind.CocoonHibernation}"`;
      const kindError = { path: "kind", line: manifest.lineOf(["kind"]), message: `Unsupported value: ${JSON.stringify(obj.kind)}: ${supported}` };
      return verdict(missing.length > 0 ? missing : [kindError]);
    }
    return { ...id, manifest, valid: true, skipped: true, reason: SKIP_REASON, errors: [] };
  }
  const parsed = rules.schema.safeParse(value);
  const issues = parsed.success ? [] : parsed.error.issues;
  // The server's root notice that CEL rules were skipped adds nothing to the errors that caused it;
  // it does tell us the transition rules are skipped too, as the server skips them.
  const rulesSkipped = issues.some((issue) => issue.path.length === 0 && issue.message === RULES_NOT_CHECKED_MESSAGE);
  const errors: Finding[] = issues
    .filter((issue) => !(issue.path.length === 0 && issue.message === RULES_NOT_CHECKED_MESSAGE))
    .map((issue) => ({
        path: formatFieldPath(issue.path),
        line: manifest.lineOf(issue.path),
        message: issue.code === "invalid_type" && valueAt(value, issue.path) === undefined ? "Required value" : issue.message,
      }));
  const schema = rules.crd.spec.versions[0]?.schema.openAPIV3Schema;
  for (const path of schema === undefined ? [] : unknownFields(value, schema)) {
    errors.push({ path: formatFieldPath(path), line: manifest.lineOf(path), message: "unknown field" });
  }
  if (old !== undefined && !rulesSkipped) {
    const oldParsed = rules.schema.safeParse(old.value);
    const update = rules.update((oldParsed.success ? oldParsed.data : old.value) as never, (parsed.success ? parsed.data : value) as never);
    if (!update.success) {
      for (const { path, message } of update.issues) errors.push({ path: formatFieldPath(path), line: manifest.lineOf(path), message });
    }
  }
  return verdict(errors, parsed.success ? parsed.data : undefined);
}

import type { z } from "zod";
import { cocoonHibernationCRD, cocoonSetCRD } from "../apis/v1/crd.js";
import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import { CocoonHibernationSchema } from "../apis/v1/cocoonhibernation-types.js";
import { CocoonSetSchema } from "../apis/v1/cocoonset-types.js";
import { GROUP, Kind } from "../apis/v1/groupversion-info.js";
import { isRulesNotCheckedIssue } from "../apis/v1/internal/rule-gate.js";
import { type ValidationResult, validateCocoonHibernationUpdate, validateCocoonSetUpdate } from "../apis/v1/transition-rules.js";
import type { FieldValidation } from "./args.js";
import {
  type FieldPath,
  type Finding,
  type ObjectIdentity,
  describeIssue,
  describeValue,
  formatFieldPath,
  identityOf,
  quoteValue,
} from "./findings.js";
import type { Manifest } from "./manifests.js";
import { schemaAt, unknownFields } from "./unknown-fields.js";

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

function typeMetaErrors(manifest: Manifest, obj: Record<string, unknown>): Finding[] {
  return (["apiVersion", "kind"] as const)
    .filter((key) => typeof obj[key] !== "string" || obj[key] === "")
    .map((key) => ({ path: key, line: manifest.lineOf([key]), message: "Required value" }));
}

/** The errors the schema and the transition rules find, in the user's words. */
function schemaErrors(manifest: Manifest, rules: KindRules, old: Manifest | undefined): { errors: Finding[]; stored?: unknown } {
  const { value } = manifest;
  const finding = (path: FieldPath, message: string): Finding => ({ path: formatFieldPath(path), line: manifest.lineOf(path), message });
  const parsed = rules.schema.safeParse(value);
  const issues = parsed.success ? [] : parsed.error.issues;
  // The server's root notice that the CEL rules were skipped adds nothing to the errors that caused
  // it; it does say the transition rules are skipped too, as the server skips them.
  const rulesSkipped = issues.some(isRulesNotCheckedIssue);
  const errors = issues
    .filter((issue) => !isRulesNotCheckedIssue(issue))
    .map((issue) =>
      finding(issue.path, describeIssue(issue, valueAt(value, issue.path), rules.openAPI && schemaAt(rules.openAPI, issue.path))),
    );
  if (old !== undefined && !rulesSkipped) {
    const oldParsed = rules.schema.safeParse(old.value);
    const update = rules.update((oldParsed.success ? oldParsed.data : old.value) as never, (parsed.success ? parsed.data : value) as never);
    if (!update.success) errors.push(...update.issues.map(({ path, message }) => finding(path, message)));
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
    return {
      errors: [
        {
          path: "",
          line: manifest.line,
          message: `too large: ${size} bytes as JSON, the API server accepts at most ${MAX_REQUEST_BYTES} per request`,
        },
      ],
      warnings: [],
    };
  }
  const { errors, stored } = schemaErrors(manifest, rules, old);
  const fieldIssues = [
    ...(rules.openAPI === undefined ? [] : unknownFields(manifest.value, rules.openAPI)).map((path) => ({
      path: formatFieldPath(path),
      line: manifest.lineOf(path),
      message: "unknown field",
    })),
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
      {
        path: "",
        line: manifest.line,
        message: `expected a Kubernetes object (a mapping with apiVersion and kind), got ${describeValue(value)}`,
      },
    ]);
  }
  const obj = value as Record<string, unknown>;
  const rules = RULES.get(id.kind);
  if (rules === undefined) {
    const missing = typeMetaErrors(manifest, obj);
    const ours = typeof obj.apiVersion === "string" && obj.apiVersion.startsWith(`${GROUP}/`);
    if (missing.length > 0 || ours) {
      const supported = `supported values: "${Kind.CocoonSet}", "${Kind.CocoonHibernation}"`;
      const kindError = {
        path: "kind",
        line: manifest.lineOf(["kind"]),
        message: `Unsupported value: ${quoteValue(obj.kind)}: ${supported}`,
      };
      return verdict(missing.length > 0 ? missing : [kindError]);
    }
    return { ...id, manifest, valid: true, skipped: true, reason: SKIP_REASON, errors: [], warnings: [] };
  }
  try {
    const { errors, warnings, stored } = checkKind(manifest, rules, old, mode);
    return verdict(errors, warnings, stored);
  } catch (err) {
    // A bug of ours must not end the run: it is this object's finding, and the run goes on.
    return verdict([
      { path: "", line: manifest.line, message: `cannot be checked (a bug in cocoon-common, please report it): ${String(err)}` },
    ]);
  }
}

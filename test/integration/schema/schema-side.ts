/**
 * The zod side of each request the test sends: what `CocoonSetSchema` / `CocoonHibernationSchema`
 * (and, for updates, `validateCocoonSetUpdate` / `validateCocoonHibernationUpdate`) say about the
 * object the server validates.
 *
 * @module
 */
import type { z } from "zod";
import type { ValidationResult } from "../../../src/apis/v1/index.js";
import { nullPropertyPaths, withoutNullProperties } from "./null-pruning.js";
import { ROOT_FIELD, fieldOf, schemaVerdict, type SchemaIssue, type Verdict } from "./verdict.js";

/** What zod said: the verdict to compare, the raw answer to print, and broken invariants of the documented differences. */
export interface SchemaAnswer {
  readonly verdict: Verdict;
  readonly printable: unknown;
  readonly invariantErrors: readonly string[];
  /** How many `null` properties the input had (pruned before the comparison). */
  readonly nullProperties: number;
}

const issuesOf = (result: z.ZodSafeParseResult<unknown>): SchemaIssue[] =>
  result.success ? [] : result.error.issues.map(({ path, message, code }) => ({ path, message, code }));

/**
 * Whether `issue` is a list-map duplicate in a list whose items hold a `null` property: before
 * pruning, `{name: null}` and `{}` are different items, so which item is the duplicate can move.
 */
function isDuplicateMovedByNull(issue: SchemaIssue, nullPaths: readonly PropertyKey[][]): boolean {
  if (!issue.message.startsWith("Duplicate value") || typeof issue.path.at(-1) !== "number") return false;
  const list = issue.path.slice(0, -1);
  return nullPaths.some((path) => path.length > list.length + 1 && list.every((key, index) => path[index] === key));
}

/**
 * The documented `null` difference, checked: when `input` has `null` properties, zod must reject
 * it, naming no field beyond those properties (and the root notice) that it does not also name
 * once they are pruned, save a duplicate the `null` moved within its list.
 */
function nullInvariant(schema: z.ZodType, input: unknown, pruned: z.ZodSafeParseResult<unknown>): string[] {
  const nullPaths = nullPropertyPaths(input);
  const nullFields = nullPaths.map(fieldOf);
  if (nullFields.length === 0) return [];
  const raw = schema.safeParse(input);
  if (raw.success) return [`null: zod accepted null properties ${JSON.stringify(nullFields)}`];
  const allowed = new Set([...nullFields, ROOT_FIELD, ...issuesOf(pruned).map((issue) => fieldOf(issue.path))]);
  const extra = issuesOf(raw)
    .filter((issue) => !isDuplicateMovedByNull(issue, nullPaths))
    .map((issue) => fieldOf(issue.path))
    .filter((field) => !allowed.has(field));
  return extra.length === 0 ? [] : [`null: zod named ${JSON.stringify(extra)} beyond the null properties ${JSON.stringify(nullFields)}`];
}

/** The compared parts of a parsed object. */
function stored(data: unknown): unknown {
  const { spec, status } = (data ?? {}) as { spec?: unknown; status?: unknown };
  return { spec, status };
}

/**
 * zod's answer for an object the server validates as sent, after its `null` properties are pruned
 * (the server prunes them before validating; zod rejects them, a documented difference checked
 * by {@link nullInvariant}). `update`, when given, adds the transition rules, which the server
 * evaluates only when the object has no blocking error (zod's root notice says it has).
 */
export function schemaAnswer(
  schema: z.ZodType,
  input: unknown,
  ruleFields: readonly string[],
  update?: (parsed: unknown) => ValidationResult,
): SchemaAnswer {
  const pruned = withoutNullProperties(input);
  const result = schema.safeParse(pruned);
  const issues = issuesOf(result);
  if (update !== undefined && !issues.some((issue) => issue.path.length === 0)) {
    const transition = update(result.success ? result.data : pruned);
    if (!transition.success) for (const { path, message } of transition.issues) issues.push({ path, message, code: "custom" });
  }
  return {
    verdict: schemaVerdict(issues, result.data, ruleFields),
    printable: issues.length === 0 ? stored(result.data) : issues.map(({ path, message }) => `${fieldOf(path)}: ${message}`),
    invariantErrors: nullInvariant(schema, input, result),
    nullProperties: nullPropertyPaths(input).length,
  };
}

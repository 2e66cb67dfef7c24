/**
 * One shape for "what the API server said" and "what the zod schema said", and the comparison of
 * the two: the verdict, the field paths named, the messages of the CEL rules (and of the server's
 * "rules not checked" notice), and, for accepted objects, the stored fields.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { ApiAnswer } from "./api-client.js";

/** The path the server prints for an error that belongs to no field (`field.Invalid(nil, ...)`). */
export const ROOT_FIELD = "<nil>";

/** A verdict in comparable form. */
export interface Verdict {
  readonly accepted: boolean;
  /** `false` when the server refused without field detail (400 Bad Request). */
  readonly detailed: boolean;
  /** Field paths named, sorted and unique, in the server's notation (`spec.toolboxes[0].name`, `<nil>`). */
  readonly fields: readonly string[];
  /** Messages of the CEL rules and of the root notice, sorted. */
  readonly ruleMessages: readonly string[];
  /** The object as stored (server) or parsed (zod), when accepted. */
  readonly object?: Record<string, unknown>;
}

/** A zod-side issue: a path from the object root, a message and zod's issue code (`custom` for rules and the notice). */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code: string;
}

/** Formats a path from the object root the way apimachinery's `field.Path` prints it. */
export function fieldOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return ROOT_FIELD;
  let text = "";
  for (const segment of path) text += typeof segment === "number" ? `[${segment}]` : `${text === "" ? "" : "."}${String(segment)}`;
  return text;
}

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

interface Cause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** A server cause that only repeats a type error named at its own field (`"x" must validate at least one schema (anyOf)`). */
const isAnyOfEcho = (cause: Cause): boolean =>
  cause.field === ROOT_FIELD && (cause.message ?? "").endsWith("must validate at least one schema (anyOf)");

/**
 * kube-apiserver 1.36 and newer check the integer formats (`int32`, `int64` as the default) and
 * report a failure at the object root, or at the subresource's root (`status`), naming the field
 * in the message: `Invalid value: "": Checked value must be of type integer with format int32 in
 * spec.agent.replicas`. 1.35 does not check them.
 */
const FORMAT_CAUSE = /^Invalid value: "": Checked value must be of type integer (?:with format \w+|\(default format\)) in (\S+)$/;

/** The field a cause is about: its own, or the one a format cause names (see {@link FORMAT_CAUSE}). */
function fieldOfCause(cause: Cause): string {
  const named = FORMAT_CAUSE.exec(cause.message ?? "")?.[1];
  if (named === undefined) return cause.field ?? ROOT_FIELD;
  return cause.field === undefined || cause.field === ROOT_FIELD ? named : `${cause.field}.${named}`;
}

/** A cause written by a CEL rule or the root notice (not by the OpenAPI schema): an `Invalid value` at a rule's field. */
function isRuleCause(cause: Cause, ruleFields: ReadonlySet<string>): boolean {
  const message = cause.message ?? "";
  return (
    cause.reason === "FieldValueInvalid" &&
    ruleFields.has(cause.field ?? "") &&
    !message.includes(" in body ") &&
    !isAnyOfEcho(cause) &&
    !FORMAT_CAUSE.test(message)
  );
}

/** The message of a rule cause without the `Invalid value: ` prefix apimachinery adds. */
const ruleMessageOf = (cause: Cause): string => (cause.message ?? "").replace(/^Invalid value: (?:null: )?/, "");

/**
 * Reads the server's answer: 2xx is accepted; 422 is rejected with `details.causes`; 400 is
 * rejected without field detail. Anything else (a 409, a 500, ...) throws: it is not a verdict.
 *
 * @param ruleFields - Fields that carry CEL rules (their `Invalid value` causes are rule messages).
 */
export function serverVerdict(answer: ApiAnswer, ruleFields: readonly string[]): Verdict {
  const body = answer.body as { details?: { causes?: Cause[] } } & Record<string, unknown>;
  if (answer.status >= 200 && answer.status < 300) return { accepted: true, detailed: true, fields: [], ruleMessages: [], object: body };
  if (answer.status === 400) return { accepted: false, detailed: false, fields: [], ruleMessages: [] };
  if (answer.status !== 422) throw new Error(`unexpected answer ${answer.status}: ${JSON.stringify(answer.body)}`);
  const rules = new Set([...ruleFields, ROOT_FIELD]);
  const causes = (body.details?.causes ?? []).filter((cause) => !isAnyOfEcho(cause));
  return {
    accepted: false,
    detailed: true,
    fields: sortedUnique(causes.map(fieldOfCause)),
    ruleMessages: causes
      .filter((cause) => isRuleCause(cause, rules))
      .map(ruleMessageOf)
      .sort(),
  };
}

/**
 * Reads the zod side: `issues` empty means accepted with `object`. Custom issues at a rule field
 * or at the root are rule messages.
 */
export function schemaVerdict(issues: readonly SchemaIssue[], object: unknown, ruleFields: readonly string[]): Verdict {
  if (issues.length === 0)
    return { accepted: true, detailed: true, fields: [], ruleMessages: [], object: object as Record<string, unknown> };
  const rules = new Set([...ruleFields, ROOT_FIELD]);
  return {
    accepted: false,
    detailed: true,
    fields: sortedUnique(issues.map((issue) => fieldOf(issue.path))),
    ruleMessages: issues
      .filter((issue) => issue.code === "custom" && rules.has(fieldOf(issue.path)))
      .map((issue) => issue.message)
      .sort(),
  };
}

/** What to compare on accepted objects: top-level keys of the stored object. */
export type ComparedParts = readonly ("spec" | "status")[];

/**
 * Lists the differences between the server's and zod's verdicts (empty when they agree): verdict;
 * for rejections with detail, field paths and rule messages; for acceptances, each of `parts`
 * (compared as JSON, so key order does not matter but `null` vs absent does).
 */
export function compareVerdicts(server: Verdict, schema: Verdict, parts: ComparedParts): string[] {
  if (server.accepted !== schema.accepted)
    return [`verdict: server ${server.accepted ? "accepted" : "rejected"}, zod ${schema.accepted ? "accepted" : "rejected"}`];
  const differences: string[] = [];
  if (server.accepted) {
    for (const part of parts) {
      const stored = server.object?.[part];
      const parsed = schema.object?.[part] === undefined ? undefined : (JSON.parse(JSON.stringify(schema.object[part])) as unknown);
      if (!isDeepStrictEqual(stored, parsed)) differences.push(`${part}: server ${JSON.stringify(stored)}, zod ${JSON.stringify(parsed)}`);
    }
    return differences;
  }
  if (!server.detailed) return differences;
  if (!isDeepStrictEqual(server.fields, schema.fields))
    differences.push(`fields: server ${JSON.stringify(server.fields)}, zod ${JSON.stringify(schema.fields)}`);
  if (!isDeepStrictEqual(server.ruleMessages, schema.ruleMessages)) {
    differences.push(`rule messages: server ${JSON.stringify(server.ruleMessages)}, zod ${JSON.stringify(schema.ruleMessages)}`);
  }
  return differences;
}

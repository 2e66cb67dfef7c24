/**
 * The requests compared: dry-run creates of generated objects, dry-run `/status` updates of a
 * stored object, and dry-run updates of stored objects (the transition rules), each paired with
 * what zod says about the same object.
 *
 * Status on create: with the status subresource enabled, the server drops `status` from a create
 * (and from an update of the main resource) before validating, so a create's `status` is never
 * checked. The zod side drops it too, and status is compared through `/status` instead, where the
 * server keeps the stored spec and validates the sent status.
 *
 * @module
 */
import {
  CocoonHibernationSchema,
  CocoonSetSchema,
  validateCocoonHibernationUpdate,
  validateCocoonSetUpdate,
  type CocoonHibernationUpdateView,
  type CocoonSetUpdateView,
} from "../../../src/apis/v1/index.js";
import type { ApiClient, Plural } from "./api-client.js";
import type { CaseCheck } from "./runner.js";
import { schemaAnswer } from "./schema-side.js";

type Json = Record<string, unknown>;

/** The CEL-rule fields of each kind, in the server's notation. */
export const RULE_FIELDS = { cocoonsets: ["spec"], cocoonhibernations: ["spec.podRef"] } as const satisfies Record<
  Plural,
  readonly string[]
>;

const SCHEMAS = { cocoonsets: CocoonSetSchema, cocoonhibernations: CocoonHibernationSchema } as const;

/** `input` without `status`: what the server validates on a create. */
function withoutStatus(input: Json): Json {
  const { status: _ignored, ...rest } = input;
  return rest;
}

/** Dry-run creates of `plural`; compares the stored `spec` (and that no `status` is stored). */
export function createCheck(client: ApiClient, plural: Plural): CaseCheck<Json> {
  return {
    ruleFields: RULE_FIELDS[plural],
    parts: ["spec", "status"],
    send: (input) => client.create(plural, input),
    expect: (input) => schemaAnswer(SCHEMAS[plural], withoutStatus(input), RULE_FIELDS[plural]),
  };
}

/** Dry-run `/status` updates of the stored object `stored`, each with a generated `status`. */
export function statusCheck(client: ApiClient, plural: Plural, stored: Json): CaseCheck<unknown> {
  const name = (stored.metadata as { name: string }).name;
  return {
    ruleFields: RULE_FIELDS[plural],
    parts: ["spec", "status"],
    send: (status) => client.dryRunUpdate(plural, name, { ...stored, status }, "status"),
    expect: (status) => schemaAnswer(SCHEMAS[plural], { ...stored, status }, RULE_FIELDS[plural]),
  };
}

/** An update case: which stored object, and the spec to replace its spec with. */
export interface UpdateCase {
  readonly stored: number;
  readonly spec: unknown;
}

/** Dry-run updates of the stored `objects` of `plural`: their spec replaced, compared with the schema plus the transition rules. */
export function updateCheck(client: ApiClient, plural: Plural, objects: readonly Json[]): CaseCheck<UpdateCase> {
  const objectAt = (index: number): Json => {
    const found = objects[index];
    if (found === undefined) throw new Error(`no stored object ${index}`);
    return found;
  };
  const next = ({ stored, spec }: UpdateCase): Json => ({ ...withoutStatus(objectAt(stored)), spec });
  const rule =
    plural === "cocoonsets"
      ? (old: Json) => (parsed: unknown) => validateCocoonSetUpdate(old, parsed as CocoonSetUpdateView)
      : (old: Json) => (parsed: unknown) => validateCocoonHibernationUpdate(old, parsed as CocoonHibernationUpdateView);
  return {
    ruleFields: RULE_FIELDS[plural],
    parts: ["spec", "status"],
    send: (input) => client.dryRunUpdate(plural, (objectAt(input.stored).metadata as { name: string }).name, next(input)),
    expect: (input) => schemaAnswer(SCHEMAS[plural], next(input), RULE_FIELDS[plural], rule(objectAt(input.stored))),
  };
}

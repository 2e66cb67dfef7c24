/**
 * ajv compiled from the generated CRD's openAPIV3Schema, the peer of bench:schemas. Two validators:
 * one doing the work of zod's parse (clone the input (JSON round trip), apply the CRD defaults, prune unknown fields,
 * validate, report all errors) and one that only validates, as information.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { cocoonSetCRD } from "../src/apis/v1/index.js";
import { isK8sDateTime } from "../src/apis/v1/internal/date-time.js";

type JsonSchema = Record<string, unknown>;

/** What zod's `safeParse` does, on ajv: the parsed copy, or the errors. */
export type AjvParse = (input: object) => { success: true; data: object } | { success: false; errors: unknown[] };

const openAPISchema = (): JsonSchema => {
  const schema = cocoonSetCRD.spec.versions[0]?.schema?.openAPIV3Schema;
  if (schema === undefined) throw new Error("the CocoonSet CRD has no openAPIV3Schema");
  return schema;
};

/**
 * The schema with structural pruning spelled out for ajv: every object schema that lists its
 * properties (and keeps no unknown fields) gets `additionalProperties: false`, which ajv's
 * `removeAdditional: true` turns into removal. Objects without `properties` (metadata, resource maps)
 * keep their keys, as the apiserver does.
 */
function withPruning(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withPruning);
  if (typeof node !== "object" || node === null) return node;
  const copy: JsonSchema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withPruning(value)]));
  const prunes = "properties" in copy && !("additionalProperties" in copy) && copy["x-kubernetes-preserve-unknown-fields"] !== true;
  return prunes ? { ...copy, additionalProperties: false } : copy;
}

// int32/int64 are not enforced by the apiserver (nor by zod); date-time is, with the apiserver's parser.
const formats = { int32: true, int64: true, "date-time": isK8sDateTime } as const;

const compile = (schema: unknown, options: { useDefaults?: boolean; removeAdditional?: boolean }): ValidateFunction =>
  new Ajv({ strict: false, logger: false, allErrors: true, formats, ...options }).compile(schema as JsonSchema);

/**
 * ajv doing zod's work: a clone, CRD defaults, pruning, validation with all errors. The clone is a JSON
 * round trip, which is faster than `structuredClone` on these inputs, so the peer is not handicapped.
 */
export function ajvParser(): AjvParse {
  const validate = compile(withPruning(openAPISchema()), { useDefaults: true, removeAdditional: true });
  return (input) => {
    const data = JSON.parse(JSON.stringify(input)) as object;
    return validate(data) ? { success: true, data } : { success: false, errors: validate.errors ?? [] };
  };
}

/** ajv validating the input in place: no clone, no defaults, no pruning, all errors. */
export function ajvValidator(): (input: object) => boolean {
  const validate = compile(openAPISchema(), {});
  return (input) => validate(input);
}

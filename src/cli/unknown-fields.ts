import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import type { FieldPath } from "./field-path.js";

/** The fields of `metav1.ObjectMeta`: what the API server's strict decoding accepts under `metadata`. */
const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function walk(value: unknown, schema: JSONSchemaProps, path: FieldPath, found: FieldPath[]): void {
  if (Array.isArray(value)) {
    if (schema.items !== undefined) value.forEach((item, i) => walk(item, schema.items as JSONSchemaProps, [...path, i], found));
    return;
  }
  if (!isPlainObject(value) || schema["x-kubernetes-preserve-unknown-fields"] === true) return;
  const { properties, additionalProperties } = schema;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties?.[key] ?? additionalProperties;
    if (childSchema === undefined) {
      if (properties !== undefined) found.push([...path, key]);
    } else if (path.length === 0 && key === "metadata") {
      if (isPlainObject(child)) for (const metaKey of Object.keys(child)) if (!OBJECT_META_FIELDS.has(metaKey)) found.push(["metadata", metaKey]);
    } else {
      walk(child, childSchema, [...path, key], found);
    }
  }
}

/**
 * Lists the fields of `value` that the CRD schema does not declare, in document order. The API
 * server drops them silently (pruning), but rejects the request under strict field validation,
 * kubectl's default: a typo like `spec.agent.imag` is caught here instead of being lost.
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

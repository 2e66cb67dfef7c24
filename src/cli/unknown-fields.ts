import type { JSONSchemaProps } from "../apis/v1/crd-types.js";
import type { FieldPath } from "./findings.js";

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
        for (const metaKey of Object.keys(child)) if (!OBJECT_META_FIELDS.has(metaKey)) found.push(["metadata", metaKey]);
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
export function schemaAt(schema: JSONSchemaProps, path: FieldPath): JSONSchemaProps | undefined {
  let current: JSONSchemaProps | undefined = schema;
  for (const segment of path)
    current = current === undefined ? undefined : typeof segment === "number" ? current.items : fieldSchema(current, segment);
  return current;
}

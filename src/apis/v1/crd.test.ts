import { describe, expect, it } from "vitest";
import { cocoonHibernationCRD, cocoonSetCRD } from "./crd.js";
import type { JSONSchemaProps } from "./crd-types.js";

/** Every structural-schema violation the apiserver would report, as `path: reason`. */
function structuralViolations(node: JSONSchemaProps, path: string, out: string[]): string[] {
  const intOrString = node["x-kubernetes-int-or-string"] === true;
  if (intOrString) {
    if (JSON.stringify(node.anyOf) !== '[{"type":"integer"},{"type":"string"}]') out.push(`${path}: int-or-string anyOf`);
    if (node.type !== undefined) out.push(`${path}: int-or-string with a type`);
  } else if (typeof node.type !== "string") {
    out.push(`${path}: no type`);
  }
  for (const key of ["$ref", "$schema", "$defs", "definitions", "nullable", "allOf", "oneOf", "not", "const"]) {
    if (key in node) out.push(`${path}: ${key}`);
  }
  if (node.properties !== undefined && node.additionalProperties !== undefined) out.push(`${path}: properties + additionalProperties`);
  for (const key of node.required ?? []) if (node.properties?.[key] === undefined) out.push(`${path}: required ${key} undeclared`);
  for (const [key, child] of Object.entries(node.properties ?? {})) structuralViolations(child, `${path}.${key}`, out);
  if (node.items !== undefined) structuralViolations(node.items, `${path}[]`, out);
  if (node.additionalProperties !== undefined) structuralViolations(node.additionalProperties, `${path}{}`, out);
  return out;
}

describe.each([
  ["cocoonSetCRD", cocoonSetCRD],
  ["cocoonHibernationCRD", cocoonHibernationCRD],
])("%s", (_name, crd) => {
  const version = crd.spec.versions[0];
  const schema = version?.schema.openAPIV3Schema;

  it("is one served and stored v1 version with a status subresource", () => {
    expect(crd.spec.versions).toHaveLength(1);
    expect(version).toMatchObject({ name: "v1", served: true, storage: true, subresources: { status: {} } });
  });

  it("is a structural schema", () => {
    expect(schema).toBeDefined();
    expect(structuralViolations(schema ?? {}, "", [])).toEqual([]);
  });

  it("leaves metadata, apiVersion and kind to the apiserver", () => {
    expect(schema?.properties?.metadata).toEqual({ type: "object" });
    expect(schema?.properties?.apiVersion?.type).toBe("string");
    expect(schema?.properties?.kind?.type).toBe("string");
    expect(schema?.required).toBeUndefined();
  });

  it("is plain JSON (no shared sub-objects, nothing lost in a JSON round trip)", () => {
    expect(JSON.parse(JSON.stringify(crd))).toEqual(crd);
  });
});

describe("structuralViolations", () => {
  it("can fail", () => {
    expect(structuralViolations({ properties: { a: { anyOf: [{ type: "string" }] } } }, "", [])).toEqual([": no type", ".a: no type"]);
  });
});

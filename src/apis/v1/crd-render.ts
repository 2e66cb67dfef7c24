/**
 * Renders the CRDs from the zod schemas: what `npm run generate` writes into `crds/` and into
 * `crd-data.generated.ts`. Only the generator and the tests run it; the package's `cocoonSetCRD`
 * and `cocoonHibernationCRD` are the generated data, whatever zod the user installed.
 *
 * @internal
 * @module
 */
import { z } from "zod";
import { CocoonHibernationSchema } from "./cocoonhibernation-types.js";
import { CocoonSetSchema } from "./cocoonset-types.js";
import { GROUP, Kind, Plural, VERSION } from "./groupversion-info.js";
import { structuralNode } from "./internal/structural-schema.js";
import type { CustomResourceDefinition, JSONSchemaProps, PrinterColumn } from "./crd-types.js";

const API_VERSION_DESCRIPTION =
  "APIVersion defines the versioned schema of this representation of an object. Servers should convert " +
  "recognized schemas to the latest internal value, and may reject unrecognized values.";
const KIND_DESCRIPTION =
  "Kind is a string value representing the REST resource this object represents. Servers may infer this " +
  "from the endpoint the client submits requests to. Cannot be updated. In CamelCase.";

/**
 * The `openAPIV3Schema` of a root kind: the zod schema as the apiserver sees it on input, made
 * structural, with `apiVersion`/`kind` as plain strings and `metadata` as `type: object` (the
 * apiserver validates those itself).
 */
function openAPIV3Schema(schema: z.ZodType): JSONSchemaProps {
  const generated = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io: "input",
    unrepresentable: "throw",
    override: structuralNode,
  });
  const root = JSON.parse(JSON.stringify(generated)) as JSONSchemaProps & { properties: Record<string, JSONSchemaProps> };
  root.properties.apiVersion = { description: API_VERSION_DESCRIPTION, type: "string" };
  root.properties.kind = { description: KIND_DESCRIPTION, type: "string" };
  root.properties.metadata = { type: "object" };
  delete root.required;
  return root;
}

interface CRDOptions {
  kind: string;
  listKind: string;
  plural: string;
  shortName: string;
  schema: z.ZodType;
  columns: PrinterColumn[];
}

function customResourceDefinition(options: CRDOptions): CustomResourceDefinition {
  const { kind, listKind, plural, shortName, schema, columns } = options;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        categories: ["cocoon"],
        kind,
        listKind,
        plural,
        shortNames: [shortName, plural],
        singular: kind.toLowerCase(),
      },
      scope: "Namespaced",
      versions: [
        {
          additionalPrinterColumns: [...columns, { jsonPath: ".metadata.creationTimestamp", name: "Age", type: "date" }],
          name: VERSION,
          schema: { openAPIV3Schema: openAPIV3Schema(schema) },
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
  };
}

/** The CocoonSet CRD, rendered from `CocoonSetSchema`. @internal */
export const renderCocoonSetCRD = (): CustomResourceDefinition =>
  customResourceDefinition({
    kind: Kind.CocoonSet,
    listKind: Kind.CocoonSetList,
    plural: Plural.CocoonSet,
    shortName: "cs",
    schema: CocoonSetSchema,
    columns: [
      { jsonPath: ".status.phase", name: "Phase", type: "string" },
      { jsonPath: ".status.readyAgents", name: "Ready", type: "integer" },
      { jsonPath: ".status.desiredAgents", name: "Desired", type: "integer" },
    ],
  });

/** The CocoonHibernation CRD, rendered from `CocoonHibernationSchema`. @internal */
export const renderCocoonHibernationCRD = (): CustomResourceDefinition =>
  customResourceDefinition({
    kind: Kind.CocoonHibernation,
    listKind: Kind.CocoonHibernationList,
    plural: Plural.CocoonHibernation,
    shortName: "ch",
    schema: CocoonHibernationSchema,
    columns: [
      { jsonPath: ".spec.podRef.name", name: "Pod", type: "string" },
      { jsonPath: ".spec.desire", name: "Desire", type: "string" },
      { jsonPath: ".status.phase", name: "Phase", type: "string" },
    ],
  });

/**
 * An OpenAPI v3 schema node as a CRD carries it (`apiextensions.k8s.io/v1` `JSONSchemaProps`), with
 * the `x-kubernetes-*` extensions. Only the keys this package writes are typed.
 */
export interface JSONSchemaProps {
  type?: string;
  description?: string;
  format?: string;
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps;
  items?: JSONSchemaProps;
  anyOf?: JSONSchemaProps[];
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: { rule: string; message: string }[];
  [extension: string]: unknown;
}

/** One `additionalPrinterColumns` entry of a CRD version. */
export interface PrinterColumn {
  jsonPath: string;
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  description?: string;
}

/** One served version of a CRD. */
export interface CustomResourceDefinitionVersion {
  additionalPrinterColumns: PrinterColumn[];
  name: string;
  schema: { openAPIV3Schema: JSONSchemaProps };
  served: boolean;
  storage: boolean;
  subresources: { status: Record<string, never> };
}

/**
 * An `apiextensions.k8s.io/v1` CustomResourceDefinition as plain JSON, the shape of
 * {@link cocoonSetCRD} and {@link cocoonHibernationCRD}.
 */
export interface CustomResourceDefinition {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: {
      categories: string[];
      kind: string;
      listKind: string;
      plural: string;
      shortNames: string[];
      singular: string;
    };
    scope: "Namespaced" | "Cluster";
    versions: CustomResourceDefinitionVersion[];
  };
}

import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { API_VERSION } from "./groupversion-info.js";
import { BLOCKING } from "./internal/rule-gate.js";
import { int64 } from "./internal/schema-helpers.js";
import { dns1123LabelErrors, generatedNameStandIn, nameIsDNSSubdomain } from "../../internal/k8s-names.js";
import { addIssue } from "./internal/add-issue.js";
import { BOOL, INT64, RAW, STRING, TIME, always, oe, ptr, slice, struct, type GoType } from "../../internal/go/index.js";
import { OBJECT_META_FIELDS, type ObjectMetaField } from "./object-meta-fields.js";
import { goTag } from "./go-tags.js";

/** metav1.OwnerReference. */
const OWNER_REFERENCE = struct(
  always("apiVersion", STRING),
  always("kind", STRING),
  always("name", STRING),
  always("uid", STRING),
  oe("controller", ptr(BOOL)),
  oe("blockOwnerDeletion", ptr(BOOL)),
);

/** metav1.ManagedFieldsEntry. */
const MANAGED_FIELDS_ENTRY = struct(
  oe("manager", STRING),
  oe("operation", STRING),
  oe("apiVersion", STRING),
  oe("time", ptr(TIME)),
  oe("fieldsType", STRING),
  oe("fieldsV1", ptr(RAW)),
  oe("subresource", STRING),
);

/** The Go types of metav1.ObjectMeta's fields that the schema does not parse (all omitempty). */
const GO_ONLY_OBJECT_META_FIELDS: Partial<Record<ObjectMetaField, GoType>> = {
  selfLink: STRING,
  creationTimestamp: TIME,
  deletionTimestamp: ptr(TIME),
  deletionGracePeriodSeconds: ptr(INT64),
  ownerReferences: slice(OWNER_REFERENCE),
  managedFields: slice(MANAGED_FIELDS_ENTRY),
};

/**
 * metav1.ObjectMeta's fields in Go's order, the Go-only ones with their types: what a merge patch
 * built with Go's struct also writes (the Go table of `./k8s`, `npm run generate`).
 */
const OBJECT_META_GO_FIELDS = OBJECT_META_FIELDS.map((name) => {
  const goOnly = GO_ONLY_OBJECT_META_FIELDS[name];
  return goOnly === undefined ? name : oe(name, goOnly);
});

interface MetaNames {
  name?: string | undefined;
  generateName?: string | undefined;
  namespace?: string | undefined;
}

/** The apiserver's name checks for a custom resource (`ValidateObjectMetaAccessor`, `NameIsDNSSubdomain`). */
function checkNames(meta: MetaNames, ctx: z.RefinementCtx): void {
  const { name, generateName, namespace } = meta;
  if (generateName) {
    for (const message of nameIsDNSSubdomain(generateName, true)) {
      addIssue(ctx, { code: "custom", path: ["generateName"], message, input: generateName });
    }
  }
  if (name) {
    for (const message of nameIsDNSSubdomain(name, false)) addIssue(ctx, { code: "custom", path: ["name"], message, input: name });
  } else if (generateName) {
    const generated = generatedNameStandIn(generateName);
    for (const message of nameIsDNSSubdomain(generated, false)) {
      addIssue(ctx, { code: "custom", path: ["name"], message: `generated from generateName: ${message}`, input: generated });
    }
  } else {
    addIssue(ctx, { code: "custom", path: ["name"], message: "name or generateName is required", input: name, params: BLOCKING });
  }
  if (namespace) {
    for (const message of dns1123LabelErrors(namespace)) addIssue(ctx, { code: "custom", path: ["namespace"], message, input: namespace });
  }
}

/**
 * Validates the `metadata` of a cocoon custom resource. Permissive like the CRD (`type: object`):
 * unknown keys are kept and only the commonly read fields are typed. It checks what the apiserver
 * checks on names: `name` (or, when absent, `generateName`) must be a DNS-1123 subdomain of at most
 * 253 characters; a `generateName` may end in `-`; a `namespace`, when set, must be a DNS-1123 label.
 * Labels, annotations and the other fields are not validated beyond their types.
 *
 * @example
 * ```ts
 * ObjectMetaSchema.parse({ name: "demo", namespace: "default" });
 * ObjectMetaSchema.safeParse({ name: "Demo" }).success; // => false
 * ObjectMetaSchema.safeParse({ generateName: "demo-" }).success; // => true
 * ```
 */
export const ObjectMetaSchema = withSharedFailureShape(
  goTag(
    z
      .looseObject({
        name: z.string().optional(),
        generateName: z.string().optional(),
        namespace: z.string().optional(),
        uid: z.string().optional(),
        resourceVersion: z.string().optional(),
        generation: int64().optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
        finalizers: z.array(z.string()).optional(),
      })
      .superRefine(checkNames),
    { fields: OBJECT_META_GO_FIELDS },
  ),
);
/** Object metadata as stored; keys not listed are kept as `unknown`. */
export type ObjectMeta = z.output<typeof ObjectMetaSchema>;
/** Object metadata as written. */
export type ObjectMetaInput = z.input<typeof ObjectMetaSchema>;

/** Validates the `metadata` of a list (`metav1.ListMeta`); permissive, unknown keys kept. */
export const ListMetaSchema = withSharedFailureShape(
  z.looseObject({
    resourceVersion: z.string().optional(),
    continue: z.string().optional(),
    remainingItemCount: int64().optional(),
  }),
);
/** List metadata as stored. */
export type ListMeta = z.output<typeof ListMetaSchema>;
/** List metadata as written. */
export type ListMetaInput = z.input<typeof ListMetaSchema>;

/**
 * A `<Kind>List` object schema: type meta fixed to `kind`, optional list metadata, and `items`.
 *
 * @internal
 */
export function kubeList<K extends string, T extends z.ZodType>(kind: K, item: T, description: string) {
  return z
    .object({
      apiVersion: z.literal(API_VERSION),
      kind: z.literal(kind),
      metadata: ListMetaSchema.optional(),
      items: z.array(item),
    })
    .describe(description);
}

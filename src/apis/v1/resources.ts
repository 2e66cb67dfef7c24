import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { QUANTITY_PATTERN } from "../../internal/crd-markers.js";
import { listMap } from "./internal/list-map.js";
import { integer } from "./internal/schema-helpers.js";
import { QUANTITY } from "../../internal/go/index.js";
import { goAlways, goTag } from "./go-tags.js";

const QUANTITY_RE = new RegExp(QUANTITY_PATTERN);

/**
 * Validates a Kubernetes quantity as the CRD stores it (`x-kubernetes-int-or-string`): a JSON
 * integer, or a string matching the quantity pattern. Floats (`1.5`) and bad suffixes (`"1K"`) are
 * rejected, and so are integers beyond 2^53, which `JSON.parse` cannot hold exactly. The value is
 * kept as written (use `quantityString` for Go's canonical text).
 *
 * @example
 * ```ts
 * QuantitySchema.parse("1Gi"); // => "1Gi"
 * QuantitySchema.parse(1000); // => 1000
 * QuantitySchema.safeParse("1K").success; // => false
 * ```
 */
export const QuantitySchema = withSharedFailureShape(
  goTag(z.union([z.string().regex(QUANTITY_RE), integer()]).meta({ "x-kubernetes-int-or-string": true }), { type: QUANTITY }),
);
/** A quantity as stored: an integer or a quantity string. */
export type Quantity = z.output<typeof QuantitySchema>;
/** A quantity as written; the same as {@link Quantity}. */
export type QuantityInput = z.input<typeof QuantitySchema>;

/** Validates a `corev1.ResourceClaim`: one entry of `resources.claims`. */
export const ResourceClaimSchema = withSharedFailureShape(
  z
    .object({
      name: goAlways(z.string()).describe("Name must match the name of one entry in pod.spec.resourceClaims of the Pod."),
      request: z.string().optional().describe("Request is the name chosen for a request in the referenced claim."),
    })
    .describe("ResourceClaim references one entry in PodSpec.ResourceClaims."),
);
/** A resource claim as stored (`corev1.ResourceClaim`): references one entry in `PodSpec.ResourceClaims`. */
export interface ResourceClaim {
  /** Name must match the name of one entry in pod.spec.resourceClaims of the Pod. */
  name: string;
  /** Request is the name chosen for a request in the referenced claim. */
  request?: string | undefined;
}
/** A resource claim as written. */
export type ResourceClaimInput = z.input<typeof ResourceClaimSchema>;

/**
 * Validates a `corev1.ResourceRequirements`: `limits` and `requests` map resource names to
 * {@link QuantitySchema} values; `claims` is a list-map keyed by `name` (duplicates rejected).
 */
export const ResourceRequirementsSchema = withSharedFailureShape(
  goTag(
    z
      .object({
        claims: listMap(ResourceClaimSchema, "name")
          .optional()
          .describe("Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container."),
        limits: z
          .record(z.string(), QuantitySchema)
          .optional()
          .describe("Limits describes the maximum amount of compute resources allowed."),
        requests: z
          .record(z.string(), QuantitySchema)
          .optional()
          .describe("Requests describes the minimum amount of compute resources required."),
      })
      .describe("ResourceRequirements describes the compute resource requirements."),
    { fields: ["limits", "requests", "claims"] },
  ),
);
/** Resource requirements as stored (`corev1.ResourceRequirements`): the compute resource requirements. */
export interface ResourceRequirements {
  /** Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container. */
  claims?: ResourceClaim[] | undefined;
  /** Limits describes the maximum amount of compute resources allowed. */
  limits?: Record<string, Quantity> | undefined;
  /** Requests describes the minimum amount of compute resources required. */
  requests?: Record<string, Quantity> | undefined;
}
/** Resource requirements as written. */
export type ResourceRequirementsInput = z.input<typeof ResourceRequirementsSchema>;

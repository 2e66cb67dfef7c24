import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { conditionList } from "./condition.js";
import type { Condition } from "./condition.js";
import { CocoonHibernationPhaseSchema, HibernationDesireSchema } from "./enum-schemas.js";
import type { CocoonHibernationPhase, HibernationDesire } from "./enums.js";
import { API_VERSION, Kind } from "./groupversion-info.js";
import { POD_REF_IMMUTABLE_RULE } from "./internal/cel-rules.js";
import { gatedRules } from "./internal/rule-gate.js";
import { int64 } from "./internal/schema-helpers.js";
import { ObjectMetaSchema, kubeList } from "./object-meta.js";
import { TYPE_META_ORDER, goAlways, goTag } from "./go-tags.js";

/** Validates the pod a CocoonHibernation targets (Go `HibernationPodRef`); `name` is non-empty. */
export const HibernationPodRefSchema = withSharedFailureShape(
  z.object({ name: goAlways(z.string()).min(1) }).describe("HibernationPodRef identifies the target pod for hibernation."),
);
/** A pod reference as stored: identifies the target pod for hibernation. */
export interface HibernationPodRef {
  /** Name of the target pod, in the CocoonHibernation's namespace (required, non-empty). */
  name: string;
}
/** A pod reference as written. */
export type HibernationPodRefInput = z.input<typeof HibernationPodRefSchema>;

/**
 * Validates the desired state of a CocoonHibernation (Go `CocoonHibernationSpec`): `podRef` and
 * `desire` are required and have no defaults. `podRef` is immutable; see
 * {@link validateCocoonHibernationUpdate}.
 */
export const CocoonHibernationSpecSchema = withSharedFailureShape(
  z
    .object({
      podRef: goAlways(HibernationPodRefSchema).meta({ "x-kubernetes-validations": [POD_REF_IMMUTABLE_RULE] }),
      desire: goAlways(HibernationDesireSchema),
    })
    .describe("CocoonHibernationSpec defines the desired state of a CocoonHibernation."),
);
/** A CocoonHibernation spec as stored: the desired state of a CocoonHibernation. */
export interface CocoonHibernationSpec {
  /** HibernationPodRef identifies the target pod for hibernation; immutable once set. */
  podRef: HibernationPodRef;
  /** HibernationDesire defines the desired hibernation state. */
  desire: HibernationDesire;
}
/** A CocoonHibernation spec as written. */
export type CocoonHibernationSpecInput = z.input<typeof CocoonHibernationSpecSchema>;

/** Validates the observed state of a CocoonHibernation (Go `CocoonHibernationStatus`). */
export const CocoonHibernationStatusSchema = withSharedFailureShape(
  z
    .object({
      observedGeneration: int64().optional(),
      phase: CocoonHibernationPhaseSchema.optional(),
      vmName: z.string().optional(),
      conditions: conditionList().optional(),
    })
    .describe("CocoonHibernationStatus represents the observed state of a CocoonHibernation."),
);
/** A CocoonHibernation status as stored: the observed state of a CocoonHibernation. */
export interface CocoonHibernationStatus {
  /** The `metadata.generation` of the CocoonHibernation this status was computed from. */
  observedGeneration?: number | undefined;
  /** CocoonHibernationPhase represents the lifecycle phase of a CocoonHibernation. */
  phase?: CocoonHibernationPhase | undefined;
  /** Name of the target pod's VM. */
  vmName?: string | undefined;
  /** Conditions of the CocoonHibernation, keyed by `type`. */
  conditions?: Condition[] | undefined;
}
/** A CocoonHibernation status as written. */
export type CocoonHibernationStatusInput = z.input<typeof CocoonHibernationStatusSchema>;

/**
 * Validates a CocoonHibernation the way the apiserver does on create (type meta, names, enums,
 * required fields; unknown fields dropped). There are no defaults. As the apiserver does, an
 * object with a blocking error (a wrong type, a missing required field, a bad enum value) also
 * gets the root issue `some validation rules were not checked ...` (path `[]`). The apiserver
 * ignores `status` on create; see `CocoonSetSchema` for the other known differences.
 *
 * @example
 * ```ts
 * const ch = CocoonHibernationSchema.parse({
 *   apiVersion: "cocoonset.cocoonstack.io/v1",
 *   kind: "CocoonHibernation",
 *   metadata: { name: "nap", namespace: "default" },
 *   spec: { podRef: { name: "demo-0" }, desire: "Hibernate" },
 * });
 * ```
 */
export const CocoonHibernationSchema = withSharedFailureShape(
  goTag(
    z
      .object({
        apiVersion: z.literal(API_VERSION),
        kind: z.literal(Kind.CocoonHibernation),
        metadata: ObjectMetaSchema,
        spec: CocoonHibernationSpecSchema.optional(),
        status: CocoonHibernationStatusSchema.optional(),
      })
      // The CRD's only rule is a transition rule (update only), but the apiserver still reports
      // that it skipped it when the object has a blocking error.
      .superRefine(...gatedRules(() => undefined))
      .describe("CocoonHibernation is the Schema for the cocoonhibernations API."),
    { fields: TYPE_META_ORDER },
  ),
);
/** A CocoonHibernation as stored and read back. */
export type CocoonHibernation = z.output<typeof CocoonHibernationSchema>;
/** A CocoonHibernation as written. */
export type CocoonHibernationInput = z.input<typeof CocoonHibernationSchema>;

/** Validates a CocoonHibernation list (`kind: CocoonHibernationList`). */
export const CocoonHibernationListSchema = withSharedFailureShape(
  kubeList(Kind.CocoonHibernationList, CocoonHibernationSchema, "CocoonHibernationList contains a list of CocoonHibernation resources."),
);
/** A CocoonHibernation list as read back. */
export type CocoonHibernationList = z.output<typeof CocoonHibernationListSchema>;
/** A CocoonHibernation list as written. */
export type CocoonHibernationListInput = z.input<typeof CocoonHibernationListSchema>;

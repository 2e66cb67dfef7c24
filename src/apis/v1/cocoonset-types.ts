import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { checkReleaseRule, cocoonSetSpecFields } from "./cocoonset-spec.js";
import { CocoonSetStatusSchema } from "./cocoonset-status.js";
import { API_VERSION, Kind } from "./groupversion-info.js";
import { gatedRules } from "./internal/rule-gate.js";
import { ObjectMetaSchema, kubeList } from "./object-meta.js";
import { TYPE_META_ORDER, goTag } from "./go-tags.js";

/**
 * Validates a CocoonSet the way the apiserver does on create: `apiVersion`/`kind` must match,
 * `metadata.name` (or `generateName`) is checked, CRD defaults are applied (including inside
 * `toolboxes[]` and `envFrom[]`), enums, bounds, patterns, required fields, quantities and the
 * create-time CEL rule are enforced, and unknown fields are dropped, as structural pruning does.
 * `spec` is optional, as in the CRD. Use {@link validateCocoonSetUpdate} for the update-only rule.
 *
 * Like the apiserver, it checks the CEL rule only when nothing "blocking" is wrong anywhere in the
 * object (a wrong type, a missing required field such as `metadata.name`, a bad enum value, a
 * string over its maximum length); otherwise it reports the apiserver's root issue (path `[]`)
 * `some validation rules were not checked because the object was invalid; correct the existing
 * errors to complete validation`. Other issues (bounds, patterns, duplicate list-map keys) are
 * reported next to the rule's.
 *
 * Known differences from the apiserver, all on input the apiserver never hands back: a `null`
 * field is rejected (the apiserver prunes it, then defaults); integers beyond 2^53 are rejected
 * (`JSON.parse` cannot hold them exactly); labels, annotations and finalizers are type-checked
 * only; a wrong `kind` is reported next to the other issues (the apiserver stops at it). On
 * create the apiserver ignores `status` (the status subresource is enabled): parse without it to
 * get its verdict.
 *
 * @example
 * ```ts
 * const set = CocoonSetSchema.parse({
 *   apiVersion: "cocoonset.cocoonstack.io/v1",
 *   kind: "CocoonSet",
 *   metadata: { name: "demo", namespace: "default" },
 *   spec: { agent: { image: "ghcr.io/acme/agent:1", replicas: 2 }, toolboxes: [{ name: "browser" }] },
 * });
 * set.spec?.toolboxes?.[0]?.mode; // => "run"
 * ```
 */
export const CocoonSetSchema = withSharedFailureShape(
  goTag(
    z
      .object({
        apiVersion: z.literal(API_VERSION),
        kind: z.literal(Kind.CocoonSet),
        metadata: ObjectMetaSchema,
        spec: cocoonSetSpecFields.optional(),
        status: CocoonSetStatusSchema.optional(),
      })
      .superRefine(
        ...gatedRules<{ spec?: z.output<typeof cocoonSetSpecFields> | undefined }>((set, ctx) => {
          if (set.spec !== undefined) checkReleaseRule(set.spec, ctx, ["spec"]);
        }),
      )
      .describe("CocoonSet is the Schema for the cocoonsets API."),
    { fields: TYPE_META_ORDER },
  ),
);
/** A CocoonSet as stored and read back, defaults applied. */
export type CocoonSet = z.output<typeof CocoonSetSchema>;
/** A CocoonSet as a user writes it; defaulted fields are optional. */
export type CocoonSetInput = z.input<typeof CocoonSetSchema>;

/** Validates a CocoonSet list (`kind: CocoonSetList`), each item as {@link CocoonSetSchema}. */
export const CocoonSetListSchema = withSharedFailureShape(
  kubeList(Kind.CocoonSetList, CocoonSetSchema, "CocoonSetList contains a list of CocoonSet resources."),
);
/** A CocoonSet list as read back. */
export type CocoonSetList = z.output<typeof CocoonSetListSchema>;
/** A CocoonSet list as written. */
export type CocoonSetListInput = z.input<typeof CocoonSetListSchema>;

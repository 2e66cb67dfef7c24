import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { isK8sDateTime } from "./internal/date-time.js";
import { BLOCKING } from "./internal/rule-gate.js";
import { isConditionType, linearPattern } from "../../internal/linear-patterns.js";
import { listMap } from "./internal/list-map.js";
import { int64 } from "./internal/schema-helpers.js";
import { TIME } from "../../internal/go/index.js";
import { goAlways, goTag } from "./go-tags.js";

import { ConditionStatus } from "./condition-status.js";

const CONDITION_TYPE_RE = linearPattern(
  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
  isConditionType,
);
const CONDITION_REASON_RE = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/**
 * Validates a `metav1.Condition` with the bounds of its CRD schema: every field but
 * `observedGeneration` is required; `type` ≤ 316 characters in `CamelCase` or
 * `foo.example.com/CamelCase`; `reason` 1..1024 characters; `message` ≤ 32768 characters (may be
 * empty); `status` one of {@link ConditionStatus}; `lastTransitionTime` an RFC 3339 date-time string,
 * checked the way the apiserver checks `format: date-time`.
 */
export const ConditionSchema = withSharedFailureShape(
  goTag(
    z
      .object({
        lastTransitionTime: goTag(z.string(), { type: TIME, always: true })
          // The apiserver reports a bad date-time as a type error, which keeps the CEL rules from running.
          .refine(isK8sDateTime, { error: "must be of type date-time", params: BLOCKING })
          .meta({ format: "date-time" })
          .describe("lastTransitionTime is the last time the condition transitioned from one status to another."),
        message: goAlways(z.string()).max(32768).describe("message is a human readable message indicating details about the transition."),
        observedGeneration: int64()
          .min(0)
          .optional()
          .describe("observedGeneration represents the .metadata.generation that the condition was set based upon."),
        reason: goAlways(z.string())
          .min(1)
          .max(1024)
          .regex(CONDITION_REASON_RE)
          .describe("reason contains a programmatic identifier indicating the reason for the condition's last transition."),
        status: goAlways(z.enum(ConditionStatus)).describe("status of the condition, one of True, False, Unknown."),
        type: goAlways(z.string())
          .max(316)
          .regex(CONDITION_TYPE_RE)
          .describe("type of condition in CamelCase or in foo.example.com/CamelCase."),
      })
      .describe("Condition contains details for one aspect of the current state of this API Resource."),
    { fields: ["type", "status", "observedGeneration", "lastTransitionTime", "reason", "message"] },
  ),
);
/** A condition as stored (`metav1.Condition`): details for one aspect of the current state of this API Resource. */
export interface Condition {
  /** lastTransitionTime is the last time the condition transitioned from one status to another (RFC 3339). */
  lastTransitionTime: string;
  /** message is a human readable message indicating details about the transition. */
  message: string;
  /** observedGeneration represents the .metadata.generation that the condition was set based upon. */
  observedGeneration?: number | undefined;
  /** reason contains a programmatic identifier indicating the reason for the condition's last transition. */
  reason: string;
  /** status of the condition, one of True, False, Unknown. */
  status: ConditionStatus;
  /** type of condition in CamelCase or in `foo.example.com/CamelCase`. */
  type: string;
}
/** A condition as written; the same shape as {@link Condition}. */
export type ConditionInput = z.input<typeof ConditionSchema>;

/** A `conditions` list: a list-map keyed by `type` (a second condition of the same type is rejected). */
export const conditionList = () => listMap(ConditionSchema, "type");

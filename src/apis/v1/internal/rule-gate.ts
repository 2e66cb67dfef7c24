/**
 * When the apiserver evaluates a CRD's CEL rules. It validates the OpenAPI schema, the metadata
 * and the list-map keys first; if any of those errors is "blocking" (a wrong type, a missing
 * required field, an enum violation, a string or list over its maximum length: apiextensions
 * `hasBlockingErr`), it skips every CEL rule of the object and adds one root error instead, with
 * {@link RULES_NOT_CHECKED_MESSAGE}. Otherwise it runs the rules, also next to non-blocking errors
 * (bounds, patterns, `minLength`, duplicates).
 *
 * The schemas reproduce this with {@link gatedRules}: a check that always runs, looks at the issues
 * found so far, and either adds the notice or evaluates the rules.
 *
 * @internal
 */
import type { z } from "zod";
import { RULES_NOT_CHECKED } from "../../../internal/rules-not-checked.js";
import { addIssue } from "./add-issue.js";

/** The root error the apiserver reports when it skipped the CEL rules (`field: <nil>`). */
export const RULES_NOT_CHECKED_MESSAGE =
  "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/** `params` of a custom issue that the apiserver reports as a blocking error (a `Required` or `TypeInvalid` error). */
export const BLOCKING = { blocking: true } as const;

type RawIssue = z.core.$ZodRawIssue;

/**
 * Whether the apiserver would report `issue` as a blocking error: `TypeInvalid`/`Required`
 * (zod `invalid_type`, `invalid_union`), `NotSupported` (`invalid_value`: enums, literals),
 * `TooLong`/`TooMany` (`too_big` on a string or a list), or a custom issue marked {@link BLOCKING}.
 */
export function isBlockingIssue(issue: RawIssue): boolean {
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
    case "invalid_value":
      return true;
    case "too_big":
      return issue.origin === "string" || issue.origin === "array";
    case "custom":
      return (issue.params as { blocking?: unknown } | undefined)?.blocking === true;
    default:
      return false;
  }
}

/** Always run the gate, whatever was found before (zod skips checks after aborting issues by default). */
const ALWAYS = { when: () => true } as const;

/**
 * A `superRefine` and its params for an object whose CEL rules are `rules`: when the issues found
 * so far include a blocking one, it adds {@link RULES_NOT_CHECKED_MESSAGE} at the root and skips
 * `rules`; otherwise it runs them (the value is then well-typed where the rules read it).
 */
export function gatedRules<T>(
  rules: (value: T, ctx: z.core.$RefinementCtx<T>) => void,
): [(value: T, ctx: z.core.$RefinementCtx<T>) => void, typeof ALWAYS] {
  const gate = (value: T, ctx: z.core.$RefinementCtx<T>): void => {
    if (ctx.issues.some(isBlockingIssue)) {
      if (typeof value === "object" && value !== null) {
        addIssue(ctx, { code: "custom", path: [], message: RULES_NOT_CHECKED_MESSAGE, input: value, params: RULES_NOT_CHECKED });
      }
      return;
    }
    rules(value, ctx);
  };
  return [gate, ALWAYS];
}

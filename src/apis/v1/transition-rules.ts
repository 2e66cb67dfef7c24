import { pathOf } from "../../internal/safe-read.js";
import { POD_REF_IMMUTABLE_MESSAGE, SNAPSHOT_CLASS_IMMUTABLE_MESSAGE } from "./internal/cel-rules.js";

/** One failed rule: the path of the field the rule sits on (as the apiserver reports it) and its message. */
export interface ValidationIssue {
  /** Field path from the object root, e.g. `["spec"]` or `["spec", "podRef"]`. */
  readonly path: readonly (string | number)[];
  /** The rule's message, word for word as in the CRD. */
  readonly message: string;
}

/**
 * The verdict of an update check, shaped like zod's `safeParse` result: `success: true`, or
 * `success: false` with at least one {@link ValidationIssue}.
 */
export type ValidationResult =
  { readonly success: true } | { readonly success: false; readonly issues: readonly [ValidationIssue, ...ValidationIssue[]] };

/** The part of a CocoonSet the update rules read; a `CocoonSet` or a `CocoonSetInput` fits. */
export interface CocoonSetUpdateView {
  readonly spec?: { readonly snapshotCompatibilityClass?: string | undefined } | undefined;
}

/** The part of a CocoonHibernation the update rules read; a `CocoonHibernation` or its input fits. */
export interface CocoonHibernationUpdateView {
  readonly spec?: { readonly podRef?: { readonly name?: string | undefined } | undefined } | undefined;
}

const CLASS = "snapshotCompatibilityClass";

const OK: ValidationResult = Object.freeze({ success: true });

function fail(path: readonly (string | number)[], message: string): ValidationResult {
  return { success: false, issues: [{ path, message }] };
}

/** CEL `has()`: the key is present. JSON has no `undefined`, and the apiserver prunes `null`. */
function has<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/**
 * Checks the CRD's transition rules for an update of a CocoonSet from `oldSet` to `newSet`: once
 * `spec.snapshotCompatibilityClass` is present it may not change or be removed (message
 * `snapshotCompatibilityClass is immutable once set`, path `["spec"]`). Presence is what counts, as
 * with CEL's `has()`: an explicit `""` is "set" and locks the field. Like the apiserver, the rule is
 * skipped when either object has no `spec`.
 *
 * Only the update-only rules are checked here; validate `newSet` itself with `CocoonSetSchema`.
 * The apiserver evaluates this rule with the other CEL rules, so not when `newSet` has a blocking
 * error: when `CocoonSetSchema` reports the root issue `some validation rules were not checked ...`,
 * the server's verdict does not include this rule.
 *
 * Never throws, on any value: a missing object (`null`, as the `oldObject` of a CREATE admission)
 * or a field that cannot be read (a wrong type, a getter that throws) counts as absent.
 *
 * @example
 * ```ts
 * const result = validateCocoonSetUpdate(current, next);
 * if (!result.success) console.error(result.issues[0].message);
 * ```
 */
export function validateCocoonSetUpdate(
  oldSet: CocoonSetUpdateView | null | undefined,
  newSet: CocoonSetUpdateView | null | undefined,
): ValidationResult {
  const newSpec = pathOf(newSet, "spec");
  if (!has(pathOf(oldSet, "spec")) || !has(newSpec)) return OK;
  const oldClass = pathOf(oldSet, "spec", CLASS);
  if (!has(oldClass)) return OK;
  const newClass = pathOf(newSpec, CLASS);
  return has(newClass) && newClass === oldClass ? OK : fail(["spec"], SNAPSHOT_CLASS_IMMUTABLE_MESSAGE);
}

/**
 * Checks the CRD's transition rules for an update of a CocoonHibernation: `spec.podRef` may not
 * change (message `spec.podRef is immutable`, path `["spec", "podRef"]`). Skipped when either side
 * has no `podRef`, and, by the apiserver, when the new object has a blocking error (see
 * {@link validateCocoonSetUpdate}). Never throws, on any value, as {@link validateCocoonSetUpdate}.
 *
 * @example
 * ```ts
 * validateCocoonHibernationUpdate(
 *   { spec: { podRef: { name: "a" } } },
 *   { spec: { podRef: { name: "b" } } },
 * ); // => { success: false, issues: [{ path: ["spec", "podRef"], message: "spec.podRef is immutable" }] }
 * ```
 */
export function validateCocoonHibernationUpdate(
  oldHibernation: CocoonHibernationUpdateView | null | undefined,
  newHibernation: CocoonHibernationUpdateView | null | undefined,
): ValidationResult {
  const oldRef = pathOf(oldHibernation, "spec", "podRef");
  const newRef = pathOf(newHibernation, "spec", "podRef");
  if (!has(oldRef) || !has(newRef)) return OK;
  return pathOf(oldRef, "name") === pathOf(newRef, "name") ? OK : fail(["spec", "podRef"], POD_REF_IMMUTABLE_MESSAGE);
}

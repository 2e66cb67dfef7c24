// Status conditions: Go's `ConditionTypeReady`, `NewReadyCondition` and apimachinery's
// `apimeta.SetStatusCondition` / `FindStatusCondition` / `IsStatusConditionTrue`.

import { ConditionStatus } from "../apis/v1/condition-status.js";

/**
 * A status condition (`metav1.Condition`), structurally compatible with client-node's `V1Condition`
 * and with plain JSON.
 *
 * `lastTransitionTime` is a `Date` on client-node's typed models and an RFC3339 string in JSON
 * (custom objects); both are accepted and kept as they are. It is optional here because a
 * condition built by {@link newReadyCondition} has none until {@link setStatusCondition} stamps it.
 */
export interface StatusCondition {
  /** Condition type in CamelCase, e.g. `Ready`. */
  type: string;
  /** `True`, `False` or `Unknown`. */
  status: string;
  /** CamelCase reason for the last transition. */
  reason: string;
  /** Human-readable details. */
  message: string;
  /** `metadata.generation` the condition was computed from; absent means 0. */
  observedGeneration?: number | undefined;
  /** When `status` last changed; `Date` or RFC3339 string. */
  lastTransitionTime?: Date | string | undefined;
}

/** The condition type the operator reports readiness on. */
export const CONDITION_TYPE_READY = "Ready";

/**
 * Returns a `Ready` condition without a `lastTransitionTime`, for {@link setStatusCondition} to stamp.
 *
 * Sending it without that step would fail the CRD's required `lastTransitionTime`.
 *
 * @example
 * ```ts
 * const conditions = ((set.status ??= {}).conditions ??= []);
 * setStatusCondition(conditions, newReadyCondition(set.metadata.generation ?? 0, "True", "AllReady", ""));
 * ```
 */
export function newReadyCondition(generation: number, status: ConditionStatus, reason: string, message: string): StatusCondition {
  return { type: CONDITION_TYPE_READY, status, reason, message, observedGeneration: generation };
}

/** Returns the condition of the given type (the array's own element, not a copy), or `undefined`. */
export function findStatusCondition<C extends StatusCondition>(
  conditions: readonly C[] | null | undefined,
  conditionType: string,
): C | undefined {
  return conditions?.find((c) => c.type === conditionType);
}

/** Reports whether the condition of the given type is present with status `True`. */
export function isStatusConditionTrue(conditions: readonly StatusCondition[] | null | undefined, conditionType: string): boolean {
  return findStatusCondition(conditions, conditionType)?.status === ConditionStatus.True;
}

/** Formats a time as `metav1.Time` does on the wire: RFC3339 in UTC at second precision. */
export function formatConditionTime(time: Date): string {
  return time.toISOString().replace(/\.\d+Z$/, "Z");
}

/** Go's `Time.IsZero` for both representations; an invalid `Date` or an empty string also count as unset. */
const isUnset = (time: Date | string | null | undefined): boolean =>
  time === undefined || time === null || time === "" || (time instanceof Date && Number.isNaN(time.getTime()));

/**
 * Sets `condition` in `conditions`, in place, with `apimeta.SetStatusCondition`'s rules, and
 * reports whether anything changed.
 *
 * - A new type is appended (a copy), with `lastTransitionTime` = `now` unless one is given.
 * - When the status changes, `lastTransitionTime` becomes the given one, or `now`.
 * - `reason`, `message` and `observedGeneration` are always overwritten.
 *
 * Timestamps written from `now` keep the array's representation: a `Date` truncated to the
 * second when any condition in `conditions` already holds a `Date` (client-node's
 * `V1Condition`), otherwise an RFC3339 string like `2026-08-12T10:00:00Z` (plain JSON).
 *
 * @param conditions - The status' condition list, mutated in place.
 * @param condition - The desired condition.
 * @param now - The current time; defaults to `new Date()`.
 * @returns `true` when the list was changed.
 * @example
 * ```ts
 * await patchStatus(clients, set, (copy) => {
 *   const conditions = ((copy.status ??= {}).conditions ??= []);
 *   setStatusCondition(conditions, newReadyCondition(copy.metadata.generation ?? 0, "True", "AllReady", ""));
 * });
 * ```
 */
export function setStatusCondition(conditions: StatusCondition[], condition: StatusCondition, now: Date = new Date()): boolean {
  const useDate = conditions.some((c) => c.lastTransitionTime instanceof Date);
  const stamp = (): Date | string => {
    const text = formatConditionTime(now);
    return useDate ? new Date(text) : text;
  };

  const existing = findStatusCondition(conditions, condition.type);
  if (existing === undefined) {
    const added = { ...condition };
    if (isUnset(added.lastTransitionTime)) added.lastTransitionTime = stamp();
    conditions.push(added);
    return true;
  }

  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = isUnset(condition.lastTransitionTime) ? stamp() : condition.lastTransitionTime;
    changed = true;
  }
  if (existing.reason !== condition.reason) {
    existing.reason = condition.reason;
    changed = true;
  }
  if (existing.message !== condition.message) {
    existing.message = condition.message;
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (condition.observedGeneration ?? 0)) {
    if (condition.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
  return changed;
}

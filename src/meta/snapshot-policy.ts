import { stringAt } from "./internal/safe-read.js";
import { DEFAULT_SNAPSHOT_POLICY, SNAPSHOT_POLICY_MAIN_ONLY, SNAPSHOT_POLICY_NEVER, stringOr } from "./internal/defaults.js";
import { Role } from "./keys.js";
import type { VMSpec } from "./vmspec.js";

/**
 * Reports whether a VM with this spec and role is snapshotted: never for `never`, only the main
 * agent for `main-only`, and every VM otherwise, unknown policies included. Never throws: a
 * policy that is not a string is unset (`always`).
 *
 * @example
 * ```ts
 * shouldSnapshotVM({ snapshotPolicy: "main-only" }, Role.SubAgent); // => false
 * ```
 */
export function shouldSnapshotVM(spec: Partial<Pick<VMSpec, "snapshotPolicy">>, role: string): boolean {
  switch (stringOr(stringAt(spec, "snapshotPolicy"), DEFAULT_SNAPSHOT_POLICY)) {
    case SNAPSHOT_POLICY_NEVER:
      return false;
    case SNAPSHOT_POLICY_MAIN_ONLY:
      return role === Role.Main;
    default:
      return true;
  }
}

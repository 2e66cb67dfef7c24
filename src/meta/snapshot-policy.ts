import { snapshotPolicyOrDefault } from "../apis/v1/enum-guards.js";
import { SnapshotPolicy } from "../apis/v1/enums.js";
import { stringAt } from "../internal/safe-read.js";
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
  switch (snapshotPolicyOrDefault(stringAt(spec, "snapshotPolicy"))) {
    case SnapshotPolicy.Never:
      return false;
    case SnapshotPolicy.MainOnly:
      return role === Role.Main;
    default:
      return true;
  }
}

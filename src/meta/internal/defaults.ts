/**
 * The CRD defaults the Go `Default()` methods apply, kept here as literals so `./meta` loads without
 * zod; a test pins them to the `./apis/v1` enums.
 */
export const DEFAULT_AGENT_MODE = "clone";
export const DEFAULT_TOOLBOX_MODE = "run";
export const DEFAULT_OS = "linux";
export const DEFAULT_SNAPSHOT_POLICY = "always";
export const DEFAULT_BACKEND = "cloud-hypervisor";
export const SNAPSHOT_POLICY_NEVER = "never";
export const SNAPSHOT_POLICY_MAIN_ONLY = "main-only";
export const TOOLBOX_MODE_STATIC = "static";

/** Go's `cmp.Or` on strings: the value unless it is empty or missing. */
export function stringOr(value: string | undefined, fallback: string): string {
  return value || fallback;
}

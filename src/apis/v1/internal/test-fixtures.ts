/**
 * Builders shared by the schema tests (not part of the package API).
 *
 * @internal
 */
import type { z } from "zod";

/** A CocoonSet with the given spec, valid type meta and a valid name. */
export function cocoonSet(spec?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "cocoonset.cocoonstack.io/v1",
    kind: "CocoonSet",
    metadata: { name: "demo", namespace: "default" },
    ...(spec === undefined ? {} : { spec }),
    ...extra,
  };
}

/** The issues of a failed parse as `{ path, message }` pairs; `[]` when it succeeded. */
export function issuesOf(result: z.ZodSafeParseResult<unknown>): { path: PropertyKey[]; message: string }[] {
  return result.success ? [] : result.error.issues.map(({ path, message }) => ({ path, message }));
}

/** The paths of a failed parse, dot-joined (`spec.agent.replicas`). */
export function pathsOf(result: z.ZodSafeParseResult<unknown>): string[] {
  return issuesOf(result).map(({ path }) => path.map(String).join("."));
}

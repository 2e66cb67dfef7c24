// The body of controller-runtime's client.MergeFrom(before).Data(after), as Go's k8s.Patch and
// k8s.PatchStatus send it, with the one deliberate difference written in docs/differences-from-go.md.
import { marshalGoMapJSON, type GoType } from "../../internal/go/index.js";
import { COCOON_GO_TYPES } from "./cocoon-go-types.generated.js";
import { mergePatchDiff, type MergePatch } from "./merge-patch-diff.js";
import { goRoundTrip } from "./round-trip.js";
import type { Target } from "./target.js";

/** Maps that other writers add keys to: emptying one deletes our keys only, never theirs. */
const SHARED_MAPS = ["annotations", "labels"] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Returns the merge patch that turns `before` into `after`, byte for byte as Go sends it, or
 * `undefined` when there is nothing to send (Go sends `{}`).
 *
 * A CocoonSet or CocoonHibernation is first read as Go's typed struct holds it, so a zero value
 * is what Go makes of it (`phase: ""` deletes the field, an empty map is no map). The keys are
 * sorted and escaped by Go's encoder. With `resourceVersion`, it is sent as the precondition
 * (`MergeFromWithOptimisticLock`). Unlike Go, emptying `metadata.annotations` or `labels` sends
 * `null` for each key that was there rather than `null` for the whole map, which would also
 * delete keys another writer added since `before` was read.
 *
 * @internal
 */
export function mergeFromBody(target: Target, before: object, after: object, resourceVersion?: string): string | undefined {
  const type = target.kind === "Pod" ? undefined : COCOON_GO_TYPES[target.kind];
  const from = asJSON(before, type);
  const to = asJSON(after, type);
  // Under the lock the version sent is the one read, whatever the mutation did to it (as in Go).
  if (resourceVersion !== undefined) to["metadata"] = { ...(isRecord(to["metadata"]) ? to["metadata"] : {}), resourceVersion };
  const patch = mergePatchDiff(from, to);
  if (patch === undefined) return undefined;
  keepOtherWritersKeys(patch, from);
  if (resourceVersion !== undefined) patch["metadata"] = { ...(isRecord(patch["metadata"]) ? patch["metadata"] : {}), resourceVersion };
  return marshalGoMapJSON(patch);
}

function asJSON(value: object, type: GoType | undefined): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  return type === undefined ? json : (goRoundTrip(type, json) as Record<string, unknown>);
}

function keepOtherWritersKeys(patch: MergePatch, from: object): void {
  const metadata = patch["metadata"];
  const before = (from as Record<string, unknown>)["metadata"];
  if (!isRecord(metadata) || !isRecord(before)) return;
  for (const name of SHARED_MAPS) {
    const had = before[name];
    if (metadata[name] !== null || !isRecord(had) || Object.keys(had).length === 0) continue;
    metadata[name] = Object.fromEntries(Object.keys(had).map((key) => [key, null]));
  }
}

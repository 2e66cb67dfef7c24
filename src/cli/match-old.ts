import { identityOf } from "./identity.js";
import type { Manifest } from "./yaml-stream.js";

/**
 * Finds the object `manifest` updates among `olds`: same kind, namespace and name. When one side
 * leaves the namespace out (a manifest relying on the current namespace, an old object dumped by
 * `kubectl get`), the only old object of that kind and name matches. Returns `undefined` when
 * nothing (or nothing unambiguous) matches: the manifest is then checked as a create.
 */
export function findOld(manifest: Manifest, olds: readonly Manifest[]): Manifest | undefined {
  const id = identityOf(manifest.value);
  if (id.kind === null || id.name === null) return undefined;
  const sameName = olds.filter((old) => {
    const oldId = identityOf(old.value);
    return oldId.kind === id.kind && oldId.name === id.name;
  });
  const exact = sameName.filter((old) => identityOf(old.value).namespace === id.namespace);
  if (exact.length > 0) return exact.at(-1);
  const loose = sameName.filter((old) => id.namespace === null || identityOf(old.value).namespace === null);
  return loose.length === 1 ? loose[0] : undefined;
}

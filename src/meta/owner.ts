import { KIND_COCOONSET, TOLERATION_KEY } from "./keys.js";
import type { OwnerReferenceLike, TolerationLike } from "./objects.js";

/**
 * Reports whether any toleration has the virtual-kubelet key; operator, value and effect are ignored.
 *
 * @example
 * ```ts
 * hasCocoonTolerationKey(pod.spec?.tolerations); // => true for pods the operator built
 * ```
 */
export function hasCocoonTolerationKey(tolerations: readonly TolerationLike[] | undefined): boolean {
  return tolerations?.some((toleration) => toleration.key === TOLERATION_KEY) ?? false;
}

/**
 * Returns the name of the first owner whose kind is `CocoonSet` (API group, controller flag and
 * UID are ignored, as in Go); `""` when there is none.
 */
export function cocoonSetOwnerName(ownerReferences: readonly OwnerReferenceLike[] | undefined): string {
  return ownerReferences?.find((ref) => ref.kind === KIND_COCOONSET)?.name ?? "";
}

/** Reports whether a CocoonSet owns the object; an owner with an empty name does not count. */
export function isOwnedByCocoonSet(ownerReferences: readonly OwnerReferenceLike[] | undefined): boolean {
  return cocoonSetOwnerName(ownerReferences) !== "";
}

import { findItem, isContainer, readString, someItem, stringAt } from "../internal/safe-read.js";
import { KIND_COCOONSET, TOLERATION_KEY } from "./keys.js";
import type { OwnerReferenceLike, TolerationLike } from "./objects.js";

/**
 * Reports whether any toleration has the virtual-kubelet key; operator, value and effect are ignored.
 * Never throws: a `null` toleration reads as Go's zero toleration, garbage as none.
 *
 * @example
 * ```ts
 * hasCocoonTolerationKey(pod.spec?.tolerations); // => true for pods the operator built
 * ```
 */
export function hasCocoonTolerationKey(tolerations: readonly TolerationLike[] | undefined): boolean {
  return someItem(tolerations, (toleration) => stringAt(toleration, "key") === TOLERATION_KEY);
}

/**
 * Returns the name of the first owner whose kind is `CocoonSet` (API group, controller flag and
 * UID are ignored, as in Go); `""` when there is none. Never throws: a `null` owner reference reads
 * as Go's zero reference, garbage as no owners.
 */
export function cocoonSetOwnerName(ownerReferences: readonly OwnerReferenceLike[] | undefined): string {
  try {
    return plainCocoonSetOwnerName(ownerReferences);
  } catch {
    // A read threw (a getter, a proxy): read again, each step on its own, as Go's zero values.
    return readString(findItem(ownerReferences, isCocoonSetRef), (ref: OwnerReferenceLike) => ref.name);
  }
}

/**
 * {@link cocoonSetOwnerName} with plain reads, which cost about half as much as the guarded ones:
 * the same name wherever no read throws (a wrong type reads as the zero value), and a throw otherwise.
 *
 * @internal
 */
export function plainCocoonSetOwnerName(ownerReferences: unknown): string {
  if (!Array.isArray(ownerReferences)) return "";
  const owners: readonly unknown[] = ownerReferences;
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- for-of would call the list's own iterator
  for (let i = 0; i < owners.length; i++) {
    const ref = owners[i];
    if (isContainer(ref) && (ref as { kind?: unknown }).kind === KIND_COCOONSET) {
      const name = (ref as { name?: unknown }).name;
      return typeof name === "string" ? name : "";
    }
  }
  return "";
}

/** One test for every call (no closure per call): the reference's kind is `CocoonSet`. */
const isCocoonSetRef = (item: unknown): boolean => readString(item, (ref: OwnerReferenceLike) => ref.kind) === KIND_COCOONSET;

/** Reports whether a CocoonSet owns the object; an owner with an empty name does not count. Never throws. */
export function isOwnedByCocoonSet(ownerReferences: readonly OwnerReferenceLike[] | undefined): boolean {
  return cocoonSetOwnerName(ownerReferences) !== "";
}

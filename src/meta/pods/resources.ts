import { cachedQuantityString } from "../internal/quantity-cache.js";
import type { PodResources, ResourcesLike } from "./types.js";

function canonicalList(list: ResourcesLike["limits"]): Record<string, string> | undefined {
  if (!list) return undefined;
  const out: Record<string, string> = {};
  let empty = true;
  for (const name in list) {
    if (!Object.hasOwn(list, name)) continue;
    // Defined, not assigned: a resource named `__proto__` is a key like any other, as in Go's map.
    Object.defineProperty(out, name, { value: cachedQuantityString(list[name]), enumerable: true, writable: true, configurable: true });
    empty = false;
  }
  return empty ? undefined : out;
}

/**
 * Returns a fresh copy of a container's resources as Go holds them on the pod: quantities in their
 * canonical text, empty maps and lists left out. The input is never shared with the result.
 *
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a value that is not a quantity.
 * @internal
 */
export function podResources(resources: ResourcesLike | undefined): PodResources {
  const out: PodResources = {};
  if (!resources) return out;
  const limits = canonicalList(resources.limits);
  const requests = canonicalList(resources.requests);
  if (limits) out.limits = limits;
  if (requests) out.requests = requests;
  if (resources.claims && resources.claims.length > 0) {
    out.claims = resources.claims.map(({ name, request }) => (request ? { name, request } : { name }));
  }
  return out;
}

import { cachedQuantityString } from "../internal/quantity-cache.js";
import { quantityNano } from "../internal/quantity-nano.js";
import type { PodResources } from "./types.js";

/** The resource name the VM's disk is requested under. */
const EPHEMERAL_STORAGE = "ephemeral-storage";

/**
 * Returns `resources` with the VM's disk size requested and limited as `ephemeral-storage`, so
 * the scheduler accounts for it (Go's `applyStorageRequest`). Both maps are set, so the API
 * server's Guaranteed-QoS defaulting keeps the value. A missing or zero storage returns the
 * resources unchanged; a negative one is copied as it is, as Go does.
 *
 * This is the operator's policy, not the contract: the virtual kubelet reads the size from the
 * `cocoonset.cocoonstack.io/storage` annotation. The input is never changed.
 *
 * @throws {@link CocoonError} `ERR_INVALID_QUANTITY` for a storage that is not a quantity.
 * @example
 * ```ts
 * applyStorageRequest({ requests: { cpu: "1" } }, "10Gi");
 * // => { requests: { cpu: "1", "ephemeral-storage": "10Gi" }, limits: { "ephemeral-storage": "10Gi" } }
 * ```
 */
export function applyStorageRequest(resources: PodResources, storage: string | number | bigint | null | undefined): PodResources {
  if (storage === null || storage === undefined || quantityNano(storage) === 0n) return resources;
  const size = cachedQuantityString(storage);
  const out: PodResources = {
    limits: { ...resources.limits, [EPHEMERAL_STORAGE]: size },
    requests: { ...resources.requests, [EPHEMERAL_STORAGE]: size },
  };
  if (resources.claims) out.claims = resources.claims;
  return out;
}

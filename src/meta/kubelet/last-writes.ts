import { stringAt } from "../../internal/safe-read.js";

/**
 * A pod as {@link LastWrites} reads it: its uid and `resourceVersion` (client-node's `V1Pod`, a
 * watched pod and plain JSON all fit).
 *
 * @example
 * ```ts
 * const seen: VersionedPod = { metadata: { uid: "u-1", resourceVersion: "4711" } };
 * ```
 */
export interface VersionedPod {
  metadata?: { uid?: string | undefined; resourceVersion?: string | undefined } | undefined;
}

/** A resource version the API documents as comparable: a positive decimal integer, no leading zero. */
const COMPARABLE = /^[1-9][0-9]*$/;

/**
 * Compares two `resourceVersion`s of objects of the same resource, by Kubernetes' rule (KEP-5504,
 * GA in v1.35; client-go's `CompareResourceVersion`): a well-formed version is a positive decimal
 * integer without leading zeros, of any length; the longer one is newer, and two of one length
 * compare digit by digit. Returns `undefined` when either is not well-formed (empty, `"0"`, a
 * leading zero, anything but digits): such versions may only be compared for equality. Never throws.
 *
 * @example
 * ```ts
 * compareResourceVersions("999", "1000"); // => -1
 * compareResourceVersions("1000", "1000"); // => 0
 * compareResourceVersions("01", "2"); // => undefined
 * ```
 */
export function compareResourceVersions(a: string, b: string): -1 | 0 | 1 | undefined {
  if (typeof a !== "string" || typeof b !== "string" || !COMPARABLE.test(a) || !COMPARABLE.test(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Remembers, per pod uid, the `resourceVersion` the virtual kubelet's own last write came back with, so the
 * virtual kubelet can drop an event older than what it wrote itself: a watch that lags, a list served from a
 * cache, or a queued event read after the write. Acting on such an event means acting on a state
 * the pod has already left (a stale `hibernate=true` after a wake would hibernate the VM again).
 *
 * Why `resourceVersion`: every write to the pod moves it (annotations and status alike), where
 * `metadata.generation` moves on spec changes only and the virtual kubelet's own annotations cover only what
 * the virtual kubelet writes. Kubernetes documents versions of one resource as comparable since v1.35
 * (KEP-5504); before, they were opaque by contract, though etcd revisions in practice. A version
 * that is not comparable, or a pod with another uid (a newer pod of the same name), is never stale:
 * in doubt the event is kept, and the decision, being level-triggered, acts on it correctly.
 *
 * @example
 * ```ts
 * const writes = new LastWrites();
 * writes.record({ metadata: { uid: "u-1", resourceVersion: "1002" } }); // what the virtual kubelet's write returned
 * writes.isStale({ metadata: { uid: "u-1", resourceVersion: "1001" } }); // => true: a watch event from before it
 * writes.isStale({ metadata: { uid: "u-2", resourceVersion: "5" } }); // => false: a newer pod of the same name
 * ```
 */
export class LastWrites {
  readonly #versions = new Map<string, string>();

  /** Records the version of `pod` as the virtual kubelet's write returned it; an older one than known is ignored. */
  record(pod: VersionedPod): void {
    const uid = stringAt(pod, "metadata", "uid");
    const version = stringAt(pod, "metadata", "resourceVersion");
    if (uid === "" || version === "") return;
    const known = this.#versions.get(uid);
    if (known === undefined || compareResourceVersions(version, known) !== -1) this.#versions.set(uid, version);
  }

  /** Whether `pod` is older than the virtual kubelet's last write to the same pod (same uid). Never throws. */
  isStale(pod: VersionedPod): boolean {
    const known = this.#versions.get(stringAt(pod, "metadata", "uid"));
    return known !== undefined && compareResourceVersions(stringAt(pod, "metadata", "resourceVersion"), known) === -1;
  }

  /** Forgets the pod (by its uid): call it once the pod's deletion is finished. */
  forget(pod: VersionedPod): void {
    this.#versions.delete(stringAt(pod, "metadata", "uid"));
  }

  /** How many pods are remembered. */
  get size(): number {
    return this.#versions.size;
  }
}

/** Blob streams whose bytes are already checked against their digest (as they are read, or hashed by their producer before). */
const checked = new WeakSet();

/**
 * Marks `stream` as digest-checked by its producer (`OCIRegistry.getBlob`, or a push that hashed
 * the bytes it uploads), so a consumer need not hash it again.
 */
export function markDigestChecked<T extends object>(stream: T): T {
  checked.add(stream);
  return stream;
}

/** Whether `stream` came marked by {@link markDigestChecked}. */
export function isDigestChecked(stream: object): boolean {
  return checked.has(stream);
}

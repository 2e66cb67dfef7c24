/** Blob streams whose bytes are already checked against their digest as they are read. */
const checked = new WeakSet();

/** Marks `stream` as digest-checked by its producer (`OCIRegistry.getBlob`), so a consumer need not hash it again. */
export function markDigestChecked<T extends object>(stream: T): T {
  checked.add(stream);
  return stream;
}

/** Whether `stream` came marked by {@link markDigestChecked}. */
export function isDigestChecked(stream: object): boolean {
  return checked.has(stream);
}

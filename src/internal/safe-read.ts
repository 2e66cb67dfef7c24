/**
 * Reads that never throw, on any JavaScript value: the readers' way to get Go's zero values from
 * garbage. A `null` where an object or list belongs, a wrong type, a getter or proxy trap that
 * throws, a revoked proxy: each reads as missing, as a JSON `null` decodes to a zero value in Go.
 * Map lookups see own keys only, so an inherited key (a polluted `Object.prototype`) never counts.
 *
 * @internal
 */

/** Whether `value` can hold properties (an object, an array, a function). */
export function isContainer(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** Reads `value[key]`; `undefined` when `value` is not an object or the read throws. */
export function propOf(value: unknown, key: string): unknown {
  if (!isContainer(value)) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * `read(value)`; `undefined` when `value` is not an object or the read throws. `read` is a
 * one-property arrow at the call site, so the load is a named one with its own inline cache (see
 * {@link metadataOf}): `readValue(metadata, (m) => m.ownerReferences)`.
 */
export function readValue(value: unknown, read: (container: never) => unknown): unknown {
  if (!isContainer(value)) return undefined;
  try {
    return read(value as never);
  } catch {
    return undefined;
  }
}

/** {@link readValue} when it is a string, else `""`. */
export function readString(value: unknown, read: (container: never) => unknown): string {
  const found = readValue(value, read);
  return typeof found === "string" ? found : "";
}

/**
 * `value.metadata`, read as {@link propOf} reads it. A hot reader's own named load: the inline cache
 * sees the objects' shapes, where {@link propOf}'s shared keyed load sees every key of every reader.
 */
export function metadataOf(value: unknown): unknown {
  return readValue(value, (object: { metadata?: unknown }) => object.metadata);
}

/** `value.metadata.annotations`, read as {@link pathOf} reads it, with named loads (see {@link metadataOf}). */
export function annotationsOf(value: unknown): unknown {
  return readValue(metadataOf(value), (metadata: { annotations?: unknown }) => metadata.annotations);
}

/** Reads `value[key]` along `keys`; `undefined` where a step is missing, not an object, or throws. */
export function pathOf(value: unknown, ...keys: readonly string[]): unknown {
  // An indexed loop over one-step reads: V8 inlines it, where for-of around a try did not.
  let current = value;
  for (let i = 0; i < keys.length && current !== undefined; i++) current = propOf(current, keys[i] ?? "");
  return current;
}

/** Reads a string along `keys`; `""` when anything on the way is missing or not a string. */
export function stringAt(value: unknown, ...keys: readonly string[]): string {
  const found = pathOf(value, ...keys);
  return typeof found === "string" ? found : "";
}

/** Reads the string `value[key]`; `""` when it is missing, not a string, or the read throws. */
export function stringProp(value: unknown, key: string): string {
  const found = propOf(value, key);
  return typeof found === "string" ? found : "";
}

/** An entry of a Go `map[string]string`: own keys only, `""` when missing or not a string. */
export function stringEntry(map: unknown, key: string): string {
  if (!isContainer(map)) return "";
  try {
    const value: unknown = (map as Record<string, unknown>)[key];
    // The own-key test only where a string was found: a missing key costs one lookup.
    return typeof value === "string" && Object.hasOwn(map, key) ? value : "";
  } catch {
    return "";
  }
}

/** A string map as the readers see it: any value may sit under a key. */
export type EntryMap = Readonly<Record<string, unknown>>;

const OBJECT_PROTOTYPE: object = Object.prototype;
const NO_KEYS: EntryMap = Object.freeze(Object.create(null) as EntryMap);

/**
 * Runs `read(map, prototype)` for a reader of many fixed keys, with loads that cost no call per
 * key. `read` loads each key at its own site, so each keeps its own inline cache, and tests it with
 * {@link ownString}: `ownString(m, KEY, m[KEY], KEY in prototype)`.
 *
 * A map whose prototype is `Object.prototype` or `null` is read as it is, with `prototype` the one
 * it inherits from (`null` as an object without keys), so `KEY in prototype` is the constant the
 * compiler folds. Any other map, a value that is not a map, and a map whose load throws are read
 * through {@link stringEntry}'s guarded loads.
 */
export function readOwnStrings<T>(map: unknown, read: (map: EntryMap, prototype: object) => T): T {
  if (!isContainer(map)) return read(NO_KEYS, NO_KEYS);
  try {
    const prototype: unknown = Object.getPrototypeOf(map);
    if (prototype === OBJECT_PROTOTYPE) return read(map as EntryMap, OBJECT_PROTOTYPE);
    if (prototype === null) return read(map as EntryMap, NO_KEYS);
  } catch {
    // A getter or a proxy trap threw: read again, each key on its own.
  }
  return read(guardedEntries(map), NO_KEYS);
}

/** `map` seen through {@link stringEntry}: each load its own key's string, `""` when missing or when it throws. */
function guardedEntries(map: object): EntryMap {
  return new Proxy(NO_KEYS, { get: (_target, key) => (typeof key === "string" ? stringEntry(map, key) : undefined) });
}

/**
 * `value`, loaded from `map[key]`, when it is a string of `map`'s own: `mayBeInherited` is `key in`
 * the map's prototype, so `Object.hasOwn` runs only for a key the prototype holds too.
 */
export function ownString(map: EntryMap, key: string, value: unknown, mayBeInherited: boolean): string {
  return typeof value === "string" && (!mayBeInherited || Object.hasOwn(map, key)) ? value : "";
}

/**
 * Returns the first item of the list for which `test` holds (`null` items included: `test` reads
 * them as it reads anything, through these helpers); `undefined` for no match, a value that is not
 * an array, or a list that throws when read.
 */
export function findItem(list: unknown, test: (item: unknown) => boolean): unknown {
  try {
    if (!Array.isArray(list)) return undefined;
    const items: readonly unknown[] = list;
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- for-of would call the list's own, possibly hostile, iterator
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (test(item)) return item;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Reports whether `test` holds for an item of the list; false as {@link findItem} finds nothing. */
export function someItem(list: unknown, test: (item: unknown) => boolean): boolean {
  let found = false;
  findItem(list, (item) => (found = test(item)));
  return found;
}

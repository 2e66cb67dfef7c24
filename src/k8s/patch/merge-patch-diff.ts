import jsonPatch from "fast-json-patch";

/** A JSON merge patch (RFC 7386) body. */
export type MergePatch = Record<string, unknown>;

/**
 * Returns the JSON merge patch (RFC 7386) that turns `before` into `after`, or `undefined` when they
 * are equal (as JSON).
 *
 * Both sides are compared in their JSON form (so a client-node `Date` equals its own string), the
 * difference is computed with fast-json-patch's `compare`, then folded into a merge patch, the form
 * Go's `client.MergeFrom` sends: a changed or added field carries its new value, a removed one
 * `null`, and a list that changed in any way is sent whole (merge patches replace lists, so no
 * element is ever addressed by an index the server may have shifted).
 *
 * @example
 * ```ts
 * mergePatchDiff({ a: 1, b: { c: 1, d: [1, 2] } }, { a: 1, b: { d: [1, 3] }, e: "x" });
 * // => { b: { c: null, d: [1, 3] }, e: "x" }
 * ```
 * @internal
 */
export function mergePatchDiff(before: object, after: object): MergePatch | undefined {
  const from = toJSON(before);
  const to = toJSON(after);
  const operations = jsonPatch.compare(from, to);
  if (operations.length === 0) return undefined;
  const patch: MergePatch = {};
  for (const operation of operations) {
    const segments = operation.path.split("/").slice(1).map(jsonPatch.unescapePathComponent);
    const listAt = firstListPrefix(from, to, segments);
    if (listAt !== undefined) {
      const path = segments.slice(0, listAt);
      setAt(patch, path, valueAt(to, path) ?? null);
    } else {
      setAt(patch, segments, operation.op === "remove" ? null : ((operation as { value?: unknown }).value ?? null));
    }
  }
  return patch;
}

/** The JSON form of `value`, as it goes on the wire. */
function toJSON(value: object): object {
  return JSON.parse(JSON.stringify(value)) as object;
}

/** Length of the shortest prefix of `segments` that names a list on either side, if any. */
function firstListPrefix(from: unknown, to: unknown, segments: readonly string[]): number | undefined {
  let a = from;
  let b = to;
  for (let i = 0; i < segments.length; i++) {
    if (Array.isArray(a) || Array.isArray(b)) return i;
    const key = segments[i] as string;
    a = child(a, key);
    b = child(b, key);
  }
  return undefined;
}

function child(node: unknown, key: string): unknown {
  return typeof node === "object" && node !== null && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => child(node, key), root);
}

/** Sets `value` at `path`, creating objects on the way (as own properties, even for a key like `__proto__`). */
function setAt(patch: MergePatch, path: readonly string[], value: unknown): void {
  let node = patch;
  for (const key of path.slice(0, -1)) {
    const next = child(node, key);
    if (typeof next === "object" && next !== null && !Array.isArray(next)) {
      node = next as MergePatch;
    } else {
      const created: MergePatch = {};
      define(node, key, created);
      node = created;
    }
  }
  const last = path[path.length - 1];
  if (last !== undefined) define(node, last, value);
}

function define(node: MergePatch, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

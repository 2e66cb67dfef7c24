/**
 * Watches a value for writes: every object reached through it is seen through a proxy that
 * records `set`, `defineProperty`, `deleteProperty`, `setPrototypeOf` and `preventExtensions`
 * (and then performs them, so behaviour is unchanged). A reader that never writes leaves the list
 * empty, on any input, proxies and frozen objects included.
 *
 * @module
 */

/** A watched value and the writes made through it so far (`<path> <trap>`). */
export interface Watched {
  readonly value: unknown;
  readonly writes: readonly string[];
}

const isObject = (value: unknown): value is object => (typeof value === "object" && value !== null) || typeof value === "function";

/** Wraps `value` so that writes anywhere inside it are recorded. */
export function watchWrites(value: unknown): Watched {
  const writes: string[] = [];
  const wrapped = new WeakMap<object, object>();

  const wrap = (target: unknown, path: string): unknown => {
    if (!isObject(target)) return target;
    const known = wrapped.get(target);
    if (known !== undefined) return known;
    const record = (trap: string, key?: PropertyKey): void => {
      writes.push(`${path}${key === undefined ? "" : `.${String(key)}`} ${trap}`);
    };
    let proxy: object;
    try {
      proxy = new Proxy(target, {
        get(t, key, receiver) {
          const member: unknown = Reflect.get(t, key, receiver);
          const own = Reflect.getOwnPropertyDescriptor(t, key);
          // A frozen property must read back as itself (a proxy invariant): leave it unwrapped.
          if (own?.configurable === false && own.writable === false) return member;
          return wrap(member, `${path}.${String(key)}`);
        },
        set: (t, key, member, receiver) => (record("set", key), Reflect.set(t, key, member, receiver)),
        defineProperty: (t, key, descriptor) => (record("defineProperty", key), Reflect.defineProperty(t, key, descriptor)),
        deleteProperty: (t, key) => (record("deleteProperty", key), Reflect.deleteProperty(t, key)),
        setPrototypeOf: (t, proto) => (record("setPrototypeOf"), Reflect.setPrototypeOf(t, proto)),
        preventExtensions: (t) => (record("preventExtensions"), Reflect.preventExtensions(t)),
      });
    } catch {
      return target; // a revoked proxy cannot be a target on every engine: it throws when read anyway
    }
    wrapped.set(target, proxy);
    return proxy;
  };

  return { value: wrap(value, "$"), writes };
}

/**
 * Values that throw, or are hard to walk, when touched: proxies and getters whose traps throw
 * {@link TRAP} (so a test can tell the input's own exception from one of ours), revoked proxies,
 * cycles and deep nesting.
 *
 * @module
 */

/** The one error every trap of these values throws. */
export const TRAP = new Error("hostile value trap");

const trap = (): never => {
  throw TRAP;
};

/** A proxy whose every trap throws {@link TRAP}. */
export function throwingProxy(): object {
  return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
}

/** A revoked proxy: every operation on it throws a `TypeError`. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** An object whose enumerable property `key` is a getter that throws {@link TRAP}. */
export function throwingGetter(key: string): object {
  return Object.defineProperty({}, key, { get: trap, enumerable: true });
}

/** An object that contains itself under `key`. */
export function cyclic(key: string): object {
  const value: Record<string, unknown> = {};
  value[key] = value;
  return value;
}

/** `{ key: { key: ... leaf } }`, `depth` levels deep, built without recursion. */
export function nested(depth: number, key: string, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { [key]: value };
  return value;
}

/** Deep-freezes a plain JSON-like value (not proxies) and returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

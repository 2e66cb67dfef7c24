/**
 * fast-check arbitraries of hostile JavaScript values: everything a caller, a decoder or an
 * attacker can hand a reader or a schema that plain JSON would not.
 *
 * @module
 */
import fc from "fast-check";
import { cyclic, deepFreeze, nested, revokedProxy, throwingGetter, throwingProxy } from "./hostile-objects.js";

export { TRAP, nested } from "./hostile-objects.js";

/**
 * A plain-data description of a hostile value. fast-check prints, shrinks and probes what it
 * generates (`in` on a revoked proxy throws), so it generates recipes and the test builds the
 * value with {@link materialize}.
 */
export type Recipe =
  | { readonly scalar: string | number | boolean | null }
  | { readonly special: Special }
  | { readonly object: Hostile; readonly key: string }
  | { readonly frozen: unknown }
  | { readonly at: readonly string[]; readonly value: Recipe };

type Special = "undefined" | "NaN" | "Infinity" | "-0" | "2^53+2" | "bigint" | "symbol" | "function" | "5MB dotted name";
type Hostile =
  | "throwingProxy"
  | "revokedProxy"
  | "throwingGetter"
  | "cyclic"
  | "deep"
  | "protoKey"
  | "nullProto"
  | "map"
  | "nullItems"
  | "cyclicKeys"
  | "deepKeys"
  | "bigintKeys";

/** Two list items whose list-map keys (`name`, `type`, `slot`) are both `key()`: a duplicate the check must print. */
const keyPair = (key: () => unknown): unknown[] => [key(), key()].map((value) => ({ name: value, type: value, slot: value }));

const SPECIALS: Record<Special, () => unknown> = {
  undefined: () => undefined,
  NaN: () => Number.NaN,
  Infinity: () => Infinity,
  "-0": () => -0,
  "2^53+2": () => 2 ** 53 + 2,
  bigint: () => 9223372036854775807n,
  symbol: () => Symbol("hostile"),
  function: () => () => "a function",
  // V8's backtracking overflowed its stack on this against the DNS-1123 pattern (issue 9).
  "5MB dotted name": () => `${"a.".repeat(2_500_000)}!`,
};

const HOSTILE: Record<Hostile, (key: string) => unknown> = {
  throwingProxy,
  revokedProxy,
  throwingGetter,
  cyclic,
  deep: (key) => nested(10_000, key, "x"),
  protoKey: (key) => JSON.parse(`{"__proto__":{"${key}":"true"},"${key}":[null]}`) as unknown,
  nullProto: () => Object.create(null) as unknown,
  map: (key) => new Map([[key, "true"]]),
  nullItems: () => [null, undefined, [], {}],
  cyclicKeys: (key) => keyPair(() => cyclic(key)),
  deepKeys: (key) => keyPair(() => nested(10_000, key, "x")),
  bigintKeys: () => keyPair(() => 1n),
};

/** Builds the value a {@link Recipe} describes (a new one on every call). */
export function materialize(recipe: Recipe): unknown {
  if ("scalar" in recipe) return recipe.scalar;
  if ("special" in recipe) return SPECIALS[recipe.special]();
  if ("object" in recipe) return HOSTILE[recipe.object](recipe.key);
  if ("frozen" in recipe) return deepFreeze(structuredClone(recipe.frozen));
  const root: Record<string, unknown> = {
    apiVersion: "cocoonset.cocoonstack.io/v1",
    kind: "CocoonSet",
    metadata: { name: "demo", namespace: "default" },
    spec: { agent: { image: "img" } },
  };
  let parent = root;
  recipe.at.forEach((key, index) => {
    if (index === recipe.at.length - 1) parent[key] = materialize(recipe.value);
    else parent = (parent[key] ??= /^\d+$/.test(recipe.at[index + 1] ?? "") ? [] : {}) as Record<string, unknown>;
  });
  return root;
}

const scalar: fc.Arbitrary<Recipe> = fc
  .oneof(
    fc.constantFrom(null, 0, true, false, "", "true", "0", "-1", "9223372036854775807", "9223372036854775808", "+7", "007", " 7"),
    fc.constantFrom("__proto__", "constructor", "toString"),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  )
  .map((value) => ({ scalar: value }));

const special: fc.Arbitrary<Recipe> = fc.constantFrom(...(Object.keys(SPECIALS) as Special[])).map((name) => ({ special: name }));

/** Every special and hostile object, planted at every place: the named cases each schema must survive. */
export function namedCases(): Recipe[] {
  const values: Recipe[] = [
    ...(Object.keys(SPECIALS) as Special[]).map((name) => ({ special: name })),
    ...(Object.keys(HOSTILE) as Hostile[]).map((object) => ({ object, key: "name" })),
  ];
  return PLACES.flatMap((at) => values.map((value) => ({ at, value })));
}

/** Any hostile value, scalar or object, that may show up where an object is read under `key`. */
export const hostileValue = (key = "metadata"): fc.Arbitrary<Recipe> =>
  fc.oneof(
    scalar,
    special,
    fc.constantFrom(...(Object.keys(HOSTILE) as Hostile[])).map((object) => ({ object, key })),
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ frozen: value })),
  );

/** The places of a Kubernetes object the readers and schemas look at. */
const PLACES: readonly (readonly string[])[] = [
  ["metadata"],
  ["metadata", "annotations"],
  ["metadata", "annotations", "vm.cocoonstack.io/hibernate"],
  ["metadata", "annotations", "cocoonset.cocoonstack.io/generation"],
  ["metadata", "labels"],
  ["metadata", "name"],
  ["metadata", "namespace"],
  ["metadata", "ownerReferences"],
  ["metadata", "ownerReferences", "0"],
  ["spec"],
  ["spec", "agent"],
  ["spec", "agent", "resources", "claims"],
  ["spec", "agent", "resources", "claims", "1"],
  ["metadata", "generateName"],
  ["status", "agents"],
  ["status", "toolboxes"],
  ["status", "conditions"],
  ["spec", "nodeSelector"],
  ["spec", "tolerations", "0"],
  ["spec", "toolboxes", "0", "name"],
  ["spec", "snapshotCompatibilityClass"],
  ["spec", "podRef"],
  ["status", "conditions", "0"],
  ["status", "conditions", "0", "type"],
  ["status", "containerStatuses", "0", "state"],
];

/**
 * A valid CocoonSet with a hostile value planted at one of the places the readers and schemas look
 * at, so they get past their first property reads before they meet it.
 */
export const hostileKubeObject: fc.Arbitrary<Recipe> = fc.record({ at: fc.constantFrom(...PLACES), value: hostileValue("name") });

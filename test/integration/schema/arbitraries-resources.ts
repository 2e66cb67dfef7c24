/**
 * Generators for the embedded Kubernetes types of a VM spec: int-or-string quantities,
 * `resources` (limits, requests, claims with duplicate keys) and `envFrom`.
 *
 * @module
 */
import fc from "fast-check";
import { field, list, object, plainString, bool, notAString, REQUIRED, type Mix } from "./arbitraries-common.js";

/** Quantity strings the CRD pattern accepts, in all three formats (decimal SI, binary SI, exponent) and with signs. */
const GOOD_QUANTITY_TEXT = [
  "0",
  "100",
  "1.5",
  ".5",
  "1.",
  "+1",
  "-1",
  "007",
  "1Ki",
  "512Mi",
  "1Gi",
  "2Ti",
  "1Pi",
  "1Ei",
  "0.5Gi",
  "1n",
  "1u",
  "500m",
  "1k",
  "1M",
  "1G",
  "1T",
  "1P",
  "1E",
  "1e3",
  "1E-3",
  "1.5e+2",
  "-2e2",
  ".5e1",
] as const;
/** Quantity strings it refuses. */
const BAD_QUANTITY_TEXT = ["1K", "1KiB", "", " 1", "1 ", "1.5.5", "e3", "0x10", "1_000", "Gi", "1i", "--1", "1e"] as const;

/** A quantity: a JSON integer or a quantity string; bad ones are bad strings, floats and other types. */
export function quantity(mix: Mix): fc.Arbitrary<unknown> {
  const good = fc.oneof(
    fc.constantFrom(...GOOD_QUANTITY_TEXT),
    fc.integer({ min: -1_000_000, max: 1_000_000_000 }),
    fc.tuple(fc.nat(9999), fc.constantFrom("", "Ki", "Mi", "Gi", "m", "k", "M", "G", "e2", "E-1")).map(([n, s]) => `${n}${s}`),
  );
  const bad = fc.oneof(fc.constantFrom<unknown>(...BAD_QUANTITY_TEXT), fc.constantFrom<unknown>(1.5, -0.5, true, {}, []));
  return field(mix, good, bad, { absent: 4, good: 5, bad: 2 });
}

const RESOURCE_NAMES = ["cpu", "memory", "nvidia.com/gpu", "ephemeral-storage"] as const;

/** A `limits`/`requests` map: resource name → quantity (a `null` value is pruned by the server). */
function quantityMap(mix: Mix): fc.Arbitrary<unknown> {
  const shape = Object.fromEntries(RESOURCE_NAMES.map((name) => [name, quantity(mix)]));
  return field(mix, object(shape, false), fc.constantFrom<unknown>("1", null, []));
}

/** One `resources.claims` item; names come from a small pool so duplicates happen. */
function claim(mix: Mix): fc.Arbitrary<unknown> {
  const item = object({ name: field(mix, fc.constantFrom("a", "b", "gpu"), notAString, REQUIRED), request: plainString(mix) });
  return mix.badness > 0 ? fc.oneof({ arbitrary: item, weight: 10 }, { arbitrary: fc.constantFrom<unknown>(null, "a"), weight: 1 }) : item;
}

/** `corev1.ResourceRequirements`. */
export function resources(mix: Mix): fc.Arbitrary<unknown> {
  return field(
    mix,
    object({ limits: quantityMap(mix), requests: quantityMap(mix), claims: list(mix, claim(mix), 3) }),
    fc.constantFrom<unknown>(null, "big", []),
    { absent: 6, good: 3, bad: 1 },
  );
}

/** A `configMapRef`/`secretRef`: `name` defaults to `""`. */
function localRef(mix: Mix): fc.Arbitrary<unknown> {
  return field(mix, object({ name: plainString(mix), optional: bool(mix) }), fc.constantFrom<unknown>(null, "cm"));
}

/** `envFrom`: a list of `corev1.EnvFromSource` (a `null` item is a type error). */
export function envFrom(mix: Mix): fc.Arbitrary<unknown> {
  const item = object({ configMapRef: localRef(mix), prefix: plainString(mix), secretRef: localRef(mix) });
  const anyItem =
    mix.badness > 0 ? fc.oneof({ arbitrary: item, weight: 10 }, { arbitrary: fc.constantFrom<unknown>(null, "x"), weight: 1 }) : item;
  return list(mix, anyItem, 2, { absent: 6, good: 3, bad: 1 });
}

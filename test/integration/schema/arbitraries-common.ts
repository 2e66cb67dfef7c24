/**
 * Building blocks of the fast-check generators: a field is absent, holds a good value or a bad
 * one (with weights), objects drop their absent fields and may carry unknown fields.
 *
 * @module
 */
import fc from "fast-check";

/** Marks a field to leave out of the generated object. */
export const ABSENT: unique symbol = Symbol("absent");

/** How often a field is absent, good or bad; `bad: 0` generates valid objects only. */
export interface Weights {
  readonly absent: number;
  readonly good: number;
  readonly bad: number;
}

/** Fields that may be left out: mostly good, sometimes absent, rarely bad. */
export const OPTIONAL: Weights = { absent: 4, good: 5, bad: 1 };
/** Fields that are required: almost always present. */
export const REQUIRED: Weights = { absent: 1, good: 16, bad: 2 };

/** The mix of invalid values a generator uses: none (valid objects only) or some. */
export interface Mix {
  /** Multiplier of every `bad` weight: 0 for valid objects only. */
  readonly badness: number;
}

/** A field: {@link ABSENT}, a `good` value or a `bad` one, weighted by `weights` and `mix`. */
export function field(
  mix: Mix,
  good: fc.Arbitrary<unknown>,
  bad: fc.Arbitrary<unknown> | undefined,
  weights: Weights = OPTIONAL,
): fc.Arbitrary<unknown> {
  // Absent first, with cross-shrinking: fast-check then shrinks a field toward its first option, so shrunk cases lose fields.
  const options: fc.WeightedArbitrary<unknown>[] = [];
  if (weights.absent > 0) options.push({ arbitrary: fc.constant(ABSENT), weight: weights.absent });
  options.push({ arbitrary: good, weight: weights.good });
  const badWeight = Math.round(weights.bad * mix.badness);
  if (bad !== undefined && badWeight > 0) options.push({ arbitrary: bad, weight: badWeight });
  return fc.oneof({ withCrossShrink: true }, ...options);
}

/** Names of unknown fields; `Image`/`Replicas` differ from real fields only by case. */
const UNKNOWN_NAMES = ["extra", "Image", "Replicas", "x-unknown", "spec", "status", "name"] as const;

/** A JSON value for an unknown field (the server prunes it whatever it is). */
const unknownValue = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.integer(),
  fc.boolean(),
  fc.constant({ nested: { deeper: [1, "two"] } }),
  fc.constant([]),
);

/**
 * An object with the fields of `shape` (absent ones dropped) plus, when `unknown` is on, sometimes
 * an unknown field whose name is not in `shape`.
 */
export function object(shape: Record<string, fc.Arbitrary<unknown>>, unknown = true): fc.Arbitrary<Record<string, unknown>> {
  const names = UNKNOWN_NAMES.filter((name) => !(name in shape));
  const extra = unknown
    ? fc.option(fc.tuple(fc.constantFrom(...names), unknownValue), { freq: 8, nil: undefined })
    : fc.constant(undefined);
  return fc.tuple(fc.record(shape), extra).map(([record, unknownField]) => {
    const out: Record<string, unknown> = {};
    if (unknownField !== undefined) out[unknownField[0]] = unknownField[1];
    for (const [key, value] of Object.entries(record)) if (value !== ABSENT) out[key] = value;
    return out;
  });
}

/** Values of the wrong JSON type for a string field. */
export const notAString = fc.constantFrom<unknown>(5, true, null, {}, ["a"]);
/** Values of the wrong JSON type for an integer field (`1.5` is a number, but not an integer). */
export const notAnInteger = fc.constantFrom<unknown>(1.5, "1", true, null, {});
/** Values of the wrong JSON type for a boolean field. */
export const notABoolean = fc.constantFrom<unknown>("true", 1, null);

/** One of `values`, or (bad) a wrong-case variant, `""`, another word, a number or `null`. */
export function enumField(mix: Mix, values: readonly string[], weights: Weights = OPTIONAL): fc.Arbitrary<unknown> {
  const first = values[0] ?? "";
  const wrongCase = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return field(mix, fc.constantFrom(...values), fc.constantFrom<unknown>(wrongCase, "", "other", 1, null), weights);
}

/**
 * An integer field bounded like `Minimum`/`Maximum`, with the bounds and one past each as edges; without
 * a `Maximum`, the top edge is the largest `int32`, as every server takes it (what is beyond it depends
 * on the server's minor, pinned in schema-vs-server.test.ts).
 */
export function boundedInt(mix: Mix, min: number, max: number | undefined, weights: Weights = OPTIONAL): fc.Arbitrary<unknown> {
  const top = max ?? 2 ** 31 - 1;
  const good = fc.oneof(fc.constantFrom(min, min + 1, top), fc.integer({ min, max: Math.min(top, min + 100_000) }));
  const past = max === undefined ? [min - 1] : [min - 1, max + 1];
  return field(mix, good, fc.oneof(fc.constantFrom(...past), notAnInteger), weights);
}

/** A string field with no constraints. */
export function plainString(mix: Mix, weights: Weights = OPTIONAL): fc.Arbitrary<unknown> {
  return field(mix, fc.oneof(fc.constantFrom("", "default", "gpu"), fc.string({ maxLength: 8 })), notAString, weights);
}

/** A boolean field. */
export function bool(mix: Mix): fc.Arbitrary<unknown> {
  return field(mix, fc.boolean(), notABoolean);
}

/** A list of 0..`max` items, or (bad) `null`/a non-list. */
export function list(mix: Mix, item: fc.Arbitrary<unknown>, max: number, weights: Weights = OPTIONAL): fc.Arbitrary<unknown> {
  return field(mix, fc.array(item, { maxLength: max }), fc.constantFrom<unknown>(null, "x", {}), weights);
}

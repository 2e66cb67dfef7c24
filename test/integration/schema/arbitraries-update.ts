/**
 * Generators of updates of stored objects, for the transition rules: a CocoonSet's
 * `snapshotCompatibilityClass` kept, set, changed, removed, emptied or `null`, on top of the
 * stored spec or a generated one; a CocoonHibernation's `podRef` kept, changed, emptied or removed.
 *
 * @module
 */
import fc from "fast-check";
import { ABSENT, type Mix } from "./arbitraries-common.js";
import { cocoonSetSpec } from "./arbitraries-cocoonset.js";
import { cocoonHibernationSpec } from "./arbitraries-hibernation.js";
import type { UpdateCase } from "./checks.js";

/** Specs of the CocoonSets stored before the update cases run: the class absent, `""` (the lock), set, and 63 characters long. */
export const STORED_SET_SPECS: readonly Record<string, unknown>[] = [
  { agent: { image: "img" } },
  { snapshotCompatibilityClass: "", agent: { image: "img", replicas: 2 } },
  { snapshotCompatibilityClass: "gold", agent: { image: "img" }, toolboxes: [{ name: "browser" }] },
  { snapshotCompatibilityClass: "c".repeat(63), hibernatePolicy: "release", agent: { image: "img" } },
];

/** The spec of the CocoonHibernation stored before the update cases run. */
export const STORED_HIBERNATION_SPEC = { podRef: { name: "pod-0" }, desire: "Hibernate" } as const;

const KEEP = Symbol("keep");

/** The class in the new spec: the old one, or absent, `""`, another value, an invalid one, `null`. */
const newClass = fc.constantFrom<unknown>(KEEP, KEEP, ABSENT, "", "gold", "silver", "a-", "c".repeat(64), null);

/** Replaces the class of `spec` with `choice` (an object spec only). */
function withClass(spec: unknown, oldClass: unknown, choice: unknown): unknown {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return spec;
  const { snapshotCompatibilityClass: _old, ...rest } = spec as Record<string, unknown>;
  const value = choice === KEEP ? oldClass : choice;
  return value === ABSENT || value === undefined ? rest : { ...rest, snapshotCompatibilityClass: value };
}

/** Updates of the stored CocoonSets (`stored` indexes {@link STORED_SET_SPECS}). */
export function cocoonSetUpdate(mix: Mix): fc.Arbitrary<UpdateCase> {
  return fc
    .record({
      stored: fc.nat(STORED_SET_SPECS.length - 1),
      fromStored: fc.boolean(),
      generated: cocoonSetSpec(mix),
      cls: newClass,
    })
    .map(({ stored, fromStored, generated, cls }) => {
      const old = STORED_SET_SPECS[stored] ?? {};
      const base = fromStored ? structuredClone(old) : generated;
      return { stored, spec: withClass(base, old.snapshotCompatibilityClass ?? ABSENT, cls) };
    });
}

/** The `podRef` in the new spec: the old one (maybe with an unknown field), another, an empty name, or none. */
const newPodRef = fc.constantFrom<unknown>(KEEP, KEEP, { name: "pod-0", extra: 1 }, { name: "pod-1" }, { name: "" }, {}, ABSENT, null);

/** Updates of the stored CocoonHibernation (index 0). */
export function cocoonHibernationUpdate(mix: Mix): fc.Arbitrary<UpdateCase> {
  const rarely = fc.nat(3).map((n) => n === 0);
  return fc
    .record({ generated: cocoonHibernationSpec(mix), podRef: newPodRef, generatedPodRef: rarely })
    .map(({ generated, podRef, generatedPodRef }) => {
      if (generatedPodRef) return { stored: 0, spec: generated };
      const { podRef: _generated, ...rest } = generated;
      const value = podRef === KEEP ? STORED_HIBERNATION_SPEC.podRef : podRef;
      return { stored: 0, spec: value === ABSENT ? rest : { ...rest, podRef: value } };
    });
}

/** Valid and invalid updates of `kind`. */
export function anyUpdate(kind: "cocoonsets" | "cocoonhibernations"): fc.Arbitrary<UpdateCase> {
  const build = kind === "cocoonsets" ? cocoonSetUpdate : cocoonHibernationUpdate;
  return fc.oneof(build({ badness: 0 }), build({ badness: 1 }));
}

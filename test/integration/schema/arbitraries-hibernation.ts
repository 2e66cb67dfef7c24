/**
 * Generators of CocoonHibernation create requests and specs: `podRef` and `desire` present,
 * missing, wrong and `null`, with unknown fields.
 *
 * @module
 */
import fc from "fast-check";
import { API_VERSION, HibernationDesire, Kind } from "../../../src/apis/v1/index.js";
import { ABSENT, REQUIRED, enumField, field, notAString, object, type Mix } from "./arbitraries-common.js";
import { metadata } from "./arbitraries-metadata.js";

/** A pod name (no pattern: any non-empty string). */
const podName = (mix: Mix) =>
  field(
    mix,
    fc.oneof(fc.constantFrom("demo-0", "Pod_Name", "p"), fc.string({ minLength: 1, maxLength: 6 })),
    fc.oneof(fc.constant(""), notAString),
    REQUIRED,
  );

/** `spec.podRef`. */
export const podRef = (mix: Mix) => field(mix, object({ name: podName(mix) }), fc.constantFrom<unknown>(null, "demo-0", []), REQUIRED);

/** A CocoonHibernation `spec`. */
export function cocoonHibernationSpec(mix: Mix): fc.Arbitrary<Record<string, unknown>> {
  return object({ podRef: podRef(mix), desire: enumField(mix, Object.values(HibernationDesire), REQUIRED) });
}

/** A whole CocoonHibernation create request for `namespace` (`status` is ignored by the server on create). */
export function cocoonHibernation(mix: Mix, namespace: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      metadata: metadata(mix, namespace),
      spec: field(mix, cocoonHibernationSpec(mix), fc.constantFrom<unknown>(null, "spec"), { absent: 1, good: 30, bad: 1 }),
      status: fc.constantFrom<unknown>(ABSENT, { phase: "Asleep" }, { phase: "Active", vmName: "vm" }),
    })
    .map(({ metadata: meta, spec, status }) => {
      const out: Record<string, unknown> = { apiVersion: API_VERSION, kind: Kind.CocoonHibernation, metadata: meta };
      if (spec !== ABSENT) out.spec = spec;
      if (status !== ABSENT) out.status = status;
      return out;
    });
}

/** Valid and invalid CocoonHibernations, half each way on average. */
export function anyCocoonHibernation(namespace: string): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(cocoonHibernation({ badness: 0 }, namespace), cocoonHibernation({ badness: 1 }, namespace));
}

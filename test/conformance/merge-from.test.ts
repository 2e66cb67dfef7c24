// Patch bodies: ours (patch/patchStatus through mergeFromBody) against controller-runtime's
// client.MergeFrom over the cocoon-common v0.3.0 structs, byte for byte, on generated CocoonSets
// and CocoonHibernations with zero values, null list items and tricky text.
import fc from "fast-check";
import { expect, it } from "vitest";
import { Kind } from "../../src/apis/v1/groupversion-info.js";
import { marshalGoMapJSON } from "../../src/internal/go/index.js";
import { COCOON_GO_TYPES } from "../../src/k8s/patch/cocoon-go-types.generated.js";
import { goRoundTrip } from "../../src/k8s/patch/round-trip.js";
import { mergeFromBody } from "../../src/k8s/patch/merge-from.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { goTypedValue, mix } from "./support/go-typed-values.js";

type CocoonKind = typeof Kind.CocoonSet | typeof Kind.CocoonHibernation;

interface Case {
  kind: CocoonKind;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  optimisticLock: boolean;
}

const caseOf = (kind: CocoonKind): fc.Arbitrary<Case> => {
  const type = COCOON_GO_TYPES[kind];
  const object = goTypedValue(type).map((v) => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {}));
  return fc
    .record({ before: object, other: object, choices: fc.array(fc.nat(4), { minLength: 16, maxLength: 16 }), optimisticLock: fc.boolean() })
    .map(({ before, other, choices, optimisticLock }) => {
      let i = 0;
      const after = mix(type, before, other, () => choices[i++ % choices.length] as number) as Record<string, unknown>;
      const rv = (before["metadata"] as { resourceVersion?: unknown } | null | undefined)?.resourceVersion;
      return { kind, before, after, optimisticLock: optimisticLock && typeof rv === "string" && rv !== "" };
    });
};

const zeroValueExamples: Case[] = [
  { kind: "CocoonSet", before: { status: { phase: "Running" } }, after: { status: { phase: "" } }, optimisticLock: false },
  { kind: "CocoonSet", before: {}, after: { status: { observedGeneration: 0 } }, optimisticLock: false },
  { kind: "CocoonSet", before: {}, after: { metadata: { annotations: {} } }, optimisticLock: false },
  { kind: "CocoonSet", before: { metadata: { annotations: { k: "v" } } }, after: { metadata: { annotations: {} } }, optimisticLock: false },
  {
    kind: "CocoonSet",
    before: { status: { phase: "Running" } },
    after: { status: { phase: "Running", conditions: [null], agents: [null] } },
    optimisticLock: false,
  },
  {
    kind: "CocoonHibernation",
    before: { metadata: { resourceVersion: "5" } },
    after: { metadata: { resourceVersion: "5", labels: { "<": "&" } } },
    optimisticLock: true,
  },
];

/**
 * What Go's body becomes with our deliberate differences (docs/differences-from-go.md): no request
 * where Go sends `{}` (or, under the lock, only the resourceVersion), and an emptied annotations or
 * labels map deletes the keys that were read rather than the whole map.
 */
function goBodyWithOurDifferences(c: Case, goPatch: string): string | undefined {
  const patch = JSON.parse(goPatch) as { metadata?: Record<string, unknown> };
  const read = (goRoundTrip(COCOON_GO_TYPES[c.kind], c.before) as { metadata: Record<string, unknown> }).metadata;
  for (const name of ["annotations", "labels"]) {
    if (patch.metadata?.[name] === null && read[name] !== undefined) {
      patch.metadata[name] = Object.fromEntries(Object.keys(read[name] as object).map((key) => [key, null]));
    }
  }
  const { resourceVersion: _lock, ...metadata } = patch.metadata ?? {};
  const withoutLock = { ...patch, metadata: Object.keys(metadata).length > 0 ? metadata : undefined };
  return marshalGoMapJSON(c.optimisticLock ? withoutLock : patch) === "{}" ? undefined : marshalGoMapJSON(patch);
}

describeConformance("client.MergeFrom", (oracle) => {
  it("describes each cocoon kind's Go struct exactly as reflection on the Go types does", async () => {
    for (const kind of [Kind.CocoonSet, Kind.CocoonHibernation] as const) {
      const go = await oracle().ask<unknown>({ op: "goTypes", args: { kind } });
      expect(JSON.parse(JSON.stringify(COCOON_GO_TYPES[kind]))).toEqual(go);
    }
  });

  for (const kind of [Kind.CocoonSet, Kind.CocoonHibernation] as const) {
    it(
      `sends controller-runtime's body for a ${kind} byte for byte`,
      async () => {
        await compareWithGo<Case, { patch?: string; error?: string }>(oracle(), {
          name: `MergeFrom ${kind}`,
          arbitrary: caseOf(kind),
          examples: zeroValueExamples.filter((c) => c.kind === kind),
          numRuns: 3_000,
          request: (c) => ({ op: "mergeFrom", args: c }),
          check: (c, go) => {
            if (go.patch === undefined) throw new Error(`Go refused a generated case: ${go.error ?? "?"}`);
            const target = { kind, name: "n", namespace: "ns" };
            const rv = c.optimisticLock ? (c.before["metadata"] as { resourceVersion: string }).resourceVersion : undefined;
            expectSame(c, mergeFromBody(target, c.before, c.after, rv), goBodyWithOurDifferences(c, go.patch));
          },
        });
      },
      CONFORMANCE_TIMEOUT_MS,
    );
  }
});

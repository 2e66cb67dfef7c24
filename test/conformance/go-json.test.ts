// Our Go-exact JSON (src/internal/go/json-marshal.ts) against encoding/json: arbitrary values echoed through
// Go, and annotation deltas written by k8s.AnnotationsMergePatch.
import fc from "fast-check";
import { expect, it } from "vitest";
import { marshalGoJSON } from "../../src/internal/go/index.js";
import { annotationsMergePatchJSON } from "../../src/meta/annotations-patch-json.js";
import { annotationDelta } from "./support/annotation-keys.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { trickyText, validText, wellFormed } from "./support/text.js";

/** JSON values as Go decodes them into `any`: objects are maps (sorted keys), numbers float64. */
const { value: goValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    trickyText,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(-0, 1e21, 1e-7, 1e-6, 123456789e15, 5e-324, 1.7976931348623157e308, 0.1 + 0.2),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.uniqueArray(fc.tuple(validText, tie("value")), { maxLength: 4, selector: ([key]) => key }).map((entries) => new Map(entries)),
  ),
}));

/** What Go holds after reading the patch: string values with lone surrogates replaced. */
function asGoReadsIt(delta: Record<string, string | null>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(delta).map(([k, v]) => [wellFormed(k), v === null ? null : wellFormed(v)]));
}

describeConformance("encoding/json", (oracle) => {
  it(
    "writes any JSON value byte for byte as json.Marshal does",
    async () => {
      await compareWithGo<unknown, { text: string }>(oracle(), {
        name: "json.Marshal",
        arbitrary: goValue,
        examples: [
          -0,
          "<&>\u2028\u2029",
          "\ud800",
          new Map([
            ["10", 1],
            ["9", 2],
            ["😀", 3],
            ["\uffff", 4],
          ]),
        ],
        numRuns: 4_000,
        request: (value) => ({ op: "json.echo", args: { text: marshalGoJSON(value) } }),
        check: (value, go) => expectSame(value, marshalGoJSON(value), go.text),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it(
    "writes annotation merge patches as k8s.AnnotationsMergePatch does, and reads Go's back",
    async () => {
      await compareWithGo<Record<string, string | null>, { patch: string }>(oracle(), {
        name: "AnnotationsMergePatch",
        arbitrary: annotationDelta,
        examples: [{ "10": "<", "9": null, "vm.cocoonstack.io/hibernate": "\u2028&" }, { "\ud800": "\udfff" }],
        numRuns: 4_000,
        request: (delta) => ({ op: "mergePatch", args: { delta } }),
        check: (delta, go) => {
          expectSame(delta, annotationsMergePatchJSON(delta), go.patch);
          const read = (JSON.parse(go.patch) as { metadata: { annotations: Record<string, string | null> } }).metadata.annotations;
          expectSame(delta, read, asGoReadsIt(delta));
        },
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  it("refuses the empty delta that Go would send as a no-op patch", async () => {
    const go = await oracle().ask<{ patch: string }>({ op: "mergePatch", args: { delta: {} } });
    expect(go.patch).toBe('{"metadata":{"annotations":{}}}');
    expect(() => annotationsMergePatchJSON({})).toThrow(/empty/);
  });
});

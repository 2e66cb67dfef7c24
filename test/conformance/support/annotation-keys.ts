import fc from "fast-check";
import { Annotation } from "../../../src/meta/index.js";
import { trickyText, wellFormed } from "./text.js";

/** Annotation keys: the contract's, integer-like ones (which JS objects reorder), and any text. */
export const annotationKey: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...Object.values(Annotation)), weight: 3 },
  { arbitrary: fc.nat(200).map(String), weight: 1 },
  { arbitrary: fc.constantFrom("a/b", "example.com/x", "__proto__", "constructor", "toString", "1e3", "-1"), weight: 1 },
  { arbitrary: trickyText.filter((key) => key !== ""), weight: 2 },
);

/** A non-empty annotation delta; no two keys become equal once they cross to Go as UTF-8. */
export const annotationDelta: fc.Arbitrary<Record<string, string | null>> = fc
  .uniqueArray(fc.tuple(annotationKey, fc.option(trickyText, { nil: null, freq: 4 })), {
    minLength: 1,
    maxLength: 8,
    selector: ([key]) => wellFormed(key),
  })
  .map((entries) => Object.fromEntries(entries));

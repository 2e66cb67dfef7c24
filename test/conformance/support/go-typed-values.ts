// Arbitrary JSON for a described Go type (src/internal/go/go-type.ts): every field may be absent,
// null or its zero value, lists may hold null items, and strings are tricky. Only values Go can
// decode into the type are generated: the comparison is about what Go sends, not what it refuses.
import fc from "fast-check";
import type { GoType } from "../../../src/internal/go/index.js";
import { trickyText, validText } from "./text.js";

const quantity = fc.constantFrom("0", "1Gi", "1024Mi", "500m", "0.5", "1e3", "+1", " 2Ki ", 1, 0, 0.5, 1e3, "100M");
const time = fc.constantFrom(
  "2026-01-01T00:00:00Z",
  "2026-01-01T00:00:00.250Z",
  "2026-01-01T01:00:00+01:00",
  "2024-02-29T23:59:59.999999999-07:30",
  "0001-01-01T00:00:00Z",
  null,
);
const int32 = fc.oneof(fc.constantFrom(0, 1, -1, 2 ** 31 - 1, -(2 ** 31)), fc.integer({ min: -5, max: 5 }));
const int64 = fc.oneof(fc.constantFrom(0, 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER), fc.integer({ min: -5, max: 5 }));
const raw = fc.constantFrom({}, { "f:metadata": { "f:labels": {} } }, { ".": {} });

/** Values of `type`, with `null` where Go reads a zero value. */
export function goTypedValue(type: GoType): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case "string":
      return fc.oneof(fc.constant(""), fc.constantFrom("Running", "True", "always", "x"), trickyText);
    case "bool":
      return fc.boolean();
    case "int32":
      return int32;
    case "int64":
      return int64;
    case "quantity":
      return quantity;
    case "time":
      return time;
    case "raw":
      return raw;
    case "uint8":
    case "bytes":
      throw new Error(`no ${type.kind} in the CRD types`);
    case "ptr":
      return fc.option(goTypedValue(type.elem), { nil: null, freq: 4 });
    case "slice":
      return fc.oneof(
        { arbitrary: fc.constant(null), weight: 1 },
        { arbitrary: fc.array(fc.option(goTypedValue(type.elem), { nil: null, freq: 5 }), { maxLength: 2 }), weight: 4 },
      );
    case "map":
      return fc.oneof(
        { arbitrary: fc.constant(null), weight: 1 },
        {
          arbitrary: fc.dictionary(fc.oneof(fc.constantFrom("a", "b", "10", "9"), validText), goTypedValue(type.elem), { maxKeys: 3 }),
          weight: 4,
        },
      );
    case "struct":
      return fc.oneof(
        { arbitrary: fc.constant(null), weight: 1 },
        {
          arbitrary: fc.record(Object.fromEntries(type.fields.map((field) => [field.name, goTypedValue(field.type)])), {
            requiredKeys: [],
          }),
          weight: 8,
        },
      );
  }
}

/**
 * Mixes two values of the same type, field by field: each struct member comes from `before`, from
 * `other`, or is deleted, as the `choices` say; so `after` is `before` with a few edits.
 */
export function mix(type: GoType, before: unknown, other: unknown, choices: () => number): unknown {
  if (type.kind !== "struct" || !isRecord(before) || !isRecord(other)) return choices() === 0 ? other : before;
  const out: Record<string, unknown> = {};
  for (const { name, type: fieldType } of type.fields) {
    const choice = choices();
    if (choice === 1) continue; // deleted
    const value = choice === 0 && Object.hasOwn(other, name) ? other[name] : before[name];
    const mixed = Object.hasOwn(before, name) && Object.hasOwn(other, name) ? mix(fieldType, before[name], other[name], choices) : value;
    if (mixed !== undefined) out[name] = mixed;
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

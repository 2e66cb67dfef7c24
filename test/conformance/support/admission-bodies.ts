// AdmissionReview bodies as JSON text, generated from the admission/v1 type table with what Go's
// decoder must judge: wrong JSON kinds, out-of-range and fractional integers, bad base64, keys in
// other cases (KELVIN SIGN, LONG S), repeated keys, unknown and `__proto__` keys, null list items,
// raw objects with number text JSON.parse would change, odd whitespace and trailing bytes.
import fc from "fast-check";
import type { GoType } from "../../../src/internal/go/index.js";
import { validText } from "./text.js";

const quote = (s: string): fc.Arbitrary<string> => fc.constant(JSON.stringify(s));
const space = fc.constantFrom("", "", " ", "\n\t", "\r\n ");
const numberText = fc.constantFrom(
  "0",
  "-0",
  "1",
  "-1",
  "2147483647",
  "2147483648",
  "-2147483649",
  "9223372036854775807",
  "9223372036854775808",
  "1.0",
  "1e2",
  "1.5",
  "255",
  "256",
);
const base64Text = fc.constantFrom("", "W10=", "W10", "AA==", "AAA=", "a", "a===", "W1\n0=", "_-==", "AB=C");

/** Any JSON value, as text, including number text that JSON.parse would not keep. */
const anyJSON: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 3 }),
  numberText,
  fc.constantFrom('{"a":1e300,"b":123456789012345678901234567890,"c":[1.0,-0]}', '{ "<" : "&\\u2028" , "x":null }', "[]", '""', "true"),
);

/** A wrong-kind value for any field. */
const wrongKind = fc.constantFrom('"yes"', "5", "1.5", "true", "[]", "{}", "[null]", '{"a":1}');

/** Spellings Go's case-insensitive field match accepts, and some it does not. */
function spelling(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(name), weight: 8 },
    { arbitrary: fc.constant(name.toUpperCase()), weight: 1 },
    { arbitrary: fc.constant(name.replace(/k/g, "\u212a").replace(/s/g, "\u017f")), weight: 1 },
    { arbitrary: fc.constant(`${name}_`), weight: 1 },
  );
}

/** JSON text for a value of `type`: mostly well typed, sometimes of the wrong kind or null. */
export function valueText(type: GoType, depth = 0): fc.Arbitrary<string> {
  const typed = wellTyped(type, depth);
  return fc.oneof(
    { arbitrary: typed, weight: 30 },
    { arbitrary: fc.constant("null"), weight: 2 },
    { arbitrary: wrongKind, weight: depth === 0 ? 0 : 1 },
  );
}

function wellTyped(type: GoType, depth: number): fc.Arbitrary<string> {
  switch (type.kind) {
    case "string":
      return fc.oneof(fc.constantFrom("", "CREATE", "u-1", "<&>"), validText).chain(quote);
    case "bool":
      return fc.constantFrom("true", "false");
    case "int32":
    case "int64":
    case "uint8":
      return numberText;
    case "bytes":
      return fc.oneof(base64Text.chain(quote), fc.constantFrom("[1,2,255]", "[256]", "[null,0]"));
    case "raw":
      return anyJSON;
    case "quantity":
    case "time":
      throw new Error(`no ${type.kind} in admission/v1`);
    case "ptr":
      return wellTyped(type.elem, depth);
    case "slice":
      return fc.array(valueText(type.elem, depth + 1), { maxLength: 3 }).map((items) => `[${items.join(",")}]`);
    case "map":
      return fc
        .array(fc.tuple(fc.oneof(fc.constantFrom("a", "b", "__proto__", "10", "9"), validText), valueText(type.elem, depth + 1)), {
          maxLength: 3,
        })
        .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
    case "struct": {
      const member = fc.oneof(
        { arbitrary: fc.constantFrom(...type.fields).chain((f) => fc.tuple(spelling(f.name), valueText(f.type, depth + 1))), weight: 10 },
        { arbitrary: fc.tuple(fc.constantFrom("unknown", "__proto__", "constructor"), anyJSON), weight: 1 },
      );
      return fc
        .tuple(fc.array(fc.tuple(member, space), { maxLength: depth === 0 ? 4 : 3 }), space)
        .map(([members, end]) => `{${members.map(([[k, v], s]) => `${s}${JSON.stringify(k)}${s}:${v}`).join(",")}${end}}`);
    }
  }
}

import fc from "fast-check";

const digit = fc.constantFrom(..."0123456789");
const digits = (maxLength: number, minLength = 0) => fc.string({ unit: digit, minLength, maxLength });

const sign = fc.constantFrom("", "", "", "", "+", "-", "-", "++", "+-", "--");
const leadingZeros = fc.constantFrom("", "", "", "0", "00", "000000000000");
const SI = ["", "n", "u", "m", "k", "M", "G", "T", "P", "E"];
const BINARY = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
const JUNK = [
  "K",
  "i",
  "KI",
  "kb",
  "mi",
  "ki",
  "Kib",
  "b",
  "x",
  "e",
  "E",
  "e+",
  "E-",
  "ee",
  "eE",
  "ei",
  "1",
  ".",
  ".5",
  " ",
  "\t",
  "٣",
  "µ",
  "Mi ",
  "m m",
];

/** An integer part that lands on the canonicalisation boundaries: m × 1000^k or m × 1024^k. */
const scaledInteger = fc
  .tuple(fc.integer({ min: 0, max: 2048 }), fc.constantFrom(1000n, 1024n), fc.integer({ min: 0, max: 7 }))
  .map(([m, base, k]) => (BigInt(m) * base ** BigInt(k)).toString());

/** Integers around the int64 and float64-exact limits. */
const edgeInteger = fc
  .tuple(fc.constantFrom(2n ** 63n, 2n ** 53n, 10n ** 18n, 10n ** 15n, 2n ** 62n), fc.integer({ min: -3, max: 3 }))
  .map(([edge, delta]) => (edge + BigInt(delta)).toString());

const integerPart = fc.oneof(
  { arbitrary: fc.nat(2100).map(String), weight: 4 },
  { arbitrary: scaledInteger, weight: 4 },
  { arbitrary: edgeInteger, weight: 1 },
  { arbitrary: digits(40), weight: 2 },
  { arbitrary: fc.constant(""), weight: 1 },
);

const fraction = fc.oneof(
  { arbitrary: fc.constant(""), weight: 6 },
  { arbitrary: fc.tuple(digits(12), fc.constantFrom("", "", "0", "000")).map(([d, z]) => `.${d}${z}`), weight: 3 },
  { arbitrary: digits(30).map((d) => `.${d}`), weight: 1 },
);

const exponent = fc
  .tuple(
    fc.constantFrom("e", "E"),
    fc.constantFrom("", "+", "-"),
    fc.oneof(fc.nat(40).map(String), fc.constantFrom("0", "09", "308", "2147483647", "2147483648", "4294967296", "99999999999", "1.5", "")),
  )
  .map((parts) => parts.join(""));

const suffix = fc.oneof(
  { arbitrary: fc.constantFrom(...SI), weight: 6 },
  { arbitrary: fc.constantFrom(...BINARY), weight: 5 },
  { arbitrary: exponent, weight: 3 },
  { arbitrary: fc.constantFrom(...JUNK), weight: 1 },
  { arbitrary: fc.string({ unit: fc.constantFrom(..."KMGTPEimnuk e+-.1"), maxLength: 4 }), weight: 1 },
);

/**
 * Whether Go answers in milliseconds. Go parses an exponent as an int64 and truncates it to int32;
 * beyond its int64 fast path (over 18 significant digits, or a scale below nano) it works on
 * exact decimals, and 10^|exponent| is then computed in full: `1e2147483648`, `1e-99999999999`
 * or a 20-digit mantissa with `e+2147483647` keep Go busy for minutes with gigabytes of memory
 * (10 s at 10^7). Such texts are left to the unit tests.
 */
export function goAnswersPromptly(text: string): boolean {
  const match = /([0-9]*)(?:\.([0-9]*))?[eE]([+-]?[0-9]+)$/.exec(text.trim());
  if (match === null) return true;
  const digits = (match[1] ?? "").replace(/^0+/, "") + (match[2] ?? "");
  const exponent = BigInt.asIntN(32, BigInt(match[3] ?? "0"));
  return exponent >= -100_000n && (exponent <= 100_000n || digits.length <= 18);
}

/** Quantity-like text: sign, zeros, integer and fraction digits, a suffix, sometimes junk. */
export const quantityText: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: fc.tuple(sign, leadingZeros, integerPart, fraction, suffix).map((parts) => parts.join("")), weight: 12 },
    { arbitrary: fc.string({ unit: fc.constantFrom(..."0123456789.+-eEkKMGTPEimun "), maxLength: 12 }), weight: 2 },
    { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
  )
  .filter(goAnswersPromptly);

const space = fc.constantFrom(" ", "  ", "\t", "\n", "\r", "\u00a0", "\u0085", "\u1680", "\u2000", "\u2028", "\u3000", "\u200b", "\ufeff");

/** Quantity text as a JSON string might carry it, sometimes wrapped in whitespace of every kind. */
export const paddedQuantityText: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: quantityText, weight: 3 },
    {
      arbitrary: fc
        .tuple(fc.array(space, { maxLength: 2 }), quantityText, fc.array(space, { maxLength: 2 }))
        .map(([before, text, after]) => before.join("") + text + after.join("")),
      weight: 1,
    },
  )
  .filter(goAnswersPromptly);

/** Numbers a TS client might put in `storage`: integers, fractions, huge, tiny, negative zero. */
export const quantityNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.nat(1 << 20),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 1000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e25, max: 1e25, noNaN: true }),
  fc.constantFrom(0, -0, 2 ** 53, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e21, 1e-7, 1.5e-9, 5e-324, 1.7976931348623157e308, 0.1, 0.3),
);

/** Integers as a TS client might write them with a `bigint`, inside and beyond int64. */
export const quantityBigInt: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.tuple(fc.constantFrom(2n ** 63n, -(2n ** 63n), 2n ** 64n), fc.bigInt({ min: -3n, max: 3n })).map(([a, b]) => a + b),
);

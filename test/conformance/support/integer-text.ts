import fc from "fast-check";

const sign = fc.constantFrom("", "", "", "+", "-", "-", "++", "+-", "-+");
const zeros = fc.constantFrom("", "", "", "0", "00", "0000000000000000000000");
const asciiDigits = (maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength });

/** Decimal digits outside ASCII: Arabic-Indic, Devanagari, fullwidth, mathematical bold (astral). */
const UNICODE_DIGITS = ["٠", "٥", "٩", "۵", "५", "５", "０", "𝟓", "߅", "᠕"];

/** Values around the int32, float64-exact and int64 limits, with a sign. */
const nearLimit = fc
  .tuple(
    fc.constantFrom(2n ** 31n, 2n ** 53n, 2n ** 63n, 2n ** 64n, 10n ** 15n, 10n ** 18n, 10n ** 19n),
    fc.bigInt({ min: -3n, max: 3n }),
    fc.boolean(),
  )
  .map(([edge, delta, negative]) => (negative ? -(edge + delta) : edge + delta).toString());

/** An integer text in the shape Go's `strconv.ParseInt` accepts, or one edit away from it. */
const integerLike = fc.tuple(
  sign,
  zeros,
  fc.oneof(
    asciiDigits(6),
    asciiDigits(25),
    nearLimit.map((t) => t.replace(/^-/, "")),
  ),
);

const junk = fc.oneof(
  fc.constantFrom(
    "",
    "+",
    "-",
    " 42",
    "42 ",
    "\t1",
    "4_2",
    "0x2a",
    "0X2A",
    "0b1",
    "0o7",
    "1e3",
    "42.0",
    ".5",
    "1,000",
    "١٢",
    "+-1",
    "∞",
    "NaN",
    "Infinity",
  ),
  fc.tuple(integerLike, fc.constantFrom(" ", "_", ".", "e", "x", "\n", "\u00a0"), fc.nat(3)).map(([[s, z, d], junkChar, at]) => {
    const text = s + z + d;
    return text.slice(0, at) + junkChar + text.slice(at);
  }),
  fc.tuple(sign, fc.string({ unit: fc.constantFrom(...UNICODE_DIGITS, "1", "2"), minLength: 1, maxLength: 6 })).map(([s, d]) => s + d),
  fc.string({ unit: fc.constantFrom(..."0123456789+- _xe.", "٥", "５"), maxLength: 12 }),
);

/** Integer text for `strconv.ParseInt`/`Atoi`: valid, at the limits, and every near miss. */
export const integerText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: integerLike.map((parts) => parts.join("")), weight: 4 },
  { arbitrary: nearLimit, weight: 2 },
  { arbitrary: junk, weight: 3 },
);

/** Flips the case of some letters. */
const recase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] === true ? c.toUpperCase() : c.toLowerCase())).join(""));

/** Boolean text for `strconv.ParseBool`: the twelve spellings, their case variants, and near misses. */
export const boolText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"),
  fc.constantFrom("true", "false", "t", "f", "yes", "no", "on", "off", "y", "n").chain(recase),
  fc
    .tuple(fc.constantFrom("true", "false", "1", "0", "T"), fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u0000"), fc.boolean())
    .map(([word, space, before]) => (before ? space + word : word + space)),
  fc.constantFrom("", "01", "00", "+1", "-0", "2", "tru", "fals", "truE", "ｔｒｕｅ", "ＴＲＵＥ", "ⅰ"),
);

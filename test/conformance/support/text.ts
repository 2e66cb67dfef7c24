import fc from "fast-check";

const LONE_SURROGATE = /\p{Cs}/gu;

/** What a string becomes once it crossed to Go as UTF-8: lone surrogates turn into U+FFFD. */
export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, "\ufffd");
}

/** Characters that encoders disagree on: HTML, line separators, controls, quotes, astral, bad surrogates. */
const HARD_CHARACTERS = [
  "<",
  ">",
  "&",
  "\u2028",
  "\u2029",
  '"',
  "\\",
  "/",
  "\n",
  "\r",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "é",
  "ß",
  "中",
  "😀",
  "\ud83d",
  "\ude00",
  "\ufffd",
  "\ufeff",
  "\u200b",
  " ",
  "a",
  "Z",
  "0",
];

/** Text that a VM spec or an annotation might hold, biased towards the characters encoders trip on. */
export const trickyText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(""), weight: 3 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 2 },
  { arbitrary: fc.string({ unit: fc.constantFrom(...HARD_CHARACTERS), maxLength: 10 }), weight: 4 },
  { arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 8 }), weight: 1 },
);

/** Text without lone surrogates, for values whose identity (not bytes) is compared. */
export const validText: fc.Arbitrary<string> = trickyText.map(wellFormed);

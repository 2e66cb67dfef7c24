// Integer and boolean parsing against Go's strconv: ParseInt(s, 10, 64), ParseInt(s, 10, 32),
// Atoi, ParseBool and FormatInt, which every annotation reader of the contract goes through.
import fc from "fast-check";
import { it } from "vitest";
import { atoi, formatInt, parseBool, parseInt32, parseInt64 } from "../../src/internal/go/index.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { boolText, integerText } from "./support/integer-text.js";

/** Go's verdicts on one text; null where Go returned an error. Integers as decimal strings. */
interface GoStrconv {
  parseInt64: string | null;
  parseInt32: string | null;
  atoi: string | null;
  parseBool: boolean | null;
  formatInt: string | null;
}

function ours(text: string): GoStrconv {
  const int64 = parseInt64(text);
  const int32 = parseInt32(text);
  const int = atoi(text);
  return {
    parseInt64: int64 === undefined ? null : int64.toString(),
    parseInt32: int32 === undefined ? null : String(int32),
    atoi: int === undefined ? null : int.toString(),
    parseBool: parseBool(text) ?? null,
    formatInt: int64 === undefined ? null : formatOf(int64),
  };
}

/** formatInt of the int64, given as a number when that is exact, as a bigint otherwise. */
function formatOf(value: bigint): string {
  const asNumber = Number(value);
  return formatInt(Number.isSafeInteger(asNumber) ? asNumber : value);
}

const CONTRACT_EXAMPLES = [
  "",
  "+",
  "-",
  "+42",
  "007",
  " 42",
  "42 ",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775808",
  "-9223372036854775809",
  "2147483647",
  "2147483648",
  "-2147483648",
  "-2147483649",
  "٥٩٠٠",
  "0x2a",
  "1e3",
  "42.0",
  "5_900",
  "-0",
  "+0",
  "9007199254740993",
  "-9007199254740993",
  "+5900",
  "05900",
  "-1",
  "0x170c",
  "not-a-number",
  "1",
  "t",
  "T",
  "TRUE",
  "true",
  "True",
  "0",
  "f",
  "F",
  "FALSE",
  "false",
  "False",
  "tRUE",
  "yes",
  " true",
];

describeConformance("strconv", (oracle) => {
  it(
    "parses integer and boolean text as Go's strconv does",
    async () => {
      await compareWithGo<string, GoStrconv>(oracle(), {
        name: "strconv",
        arbitrary: fc.oneof({ arbitrary: integerText, weight: 3 }, { arbitrary: boolText, weight: 1 }),
        examples: CONTRACT_EXAMPLES,
        numRuns: 20_000,
        request: (text) => ({ op: "strconv", args: { text } }),
        check: (text, go) => expectSame(text, ours(text), go),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});

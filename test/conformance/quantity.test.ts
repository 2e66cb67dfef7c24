// Quantities against k8s.io/apimachinery's resource.Quantity: ParseQuantity, and json.Unmarshal
// into the *resource.Quantity storage field (directly, and through the apiserver's JSON round trip).
import { it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { parseQuantity, quantityString } from "../../src/meta/index.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { paddedQuantityText, quantityBigInt, quantityNumber, quantityText } from "./support/quantity-text.js";

/** Go's answer about one quantity (`omitempty` fields). */
interface GoQuantity {
  error?: string;
  nil?: boolean;
  format?: string;
  string?: string;
  isZero?: boolean;
}

/** Our verdict in Go's shape; a CocoonError must read `quantity <shown> is invalid: <Go's text>`. */
function ours(shown: string, run: () => { format?: string; text: string } | null): GoQuantity {
  try {
    const q = run();
    if (q === null) return { nil: true };
    return { ...(q.format === undefined ? {} : { format: q.format }), string: q.text, ...(q.text === "0" ? { isZero: true } : {}) };
  } catch (error) {
    if (!isCocoonError(error, "ERR_INVALID_QUANTITY")) throw error;
    const prefix = `quantity ${shown} is invalid: `;
    return { error: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : `(unexpected message) ${error.message}` };
  }
}

/** Go's answer without `format`, which quantityString does not return. */
function withoutFormat({ format: _, ...rest }: GoQuantity): GoQuantity {
  return rest;
}

function stringOf(value: string | number | bigint | null): { text: string } | null {
  const text = quantityString(value);
  return value === null ? (text === "" ? null : { text }) : { text };
}

// A number past 2^53 has lost the digits Go would read; we refuse it (docs/differences-from-go.md).
const imprecise = (value: unknown): boolean => typeof value === "number" && Math.abs(value) > Number.MAX_SAFE_INTEGER;
const LOST_DIGITS: GoQuantity = {
  error: "a number beyond 2^53 has lost its digits (the API server keeps an int64 exactly): pass a bigint or a string",
};

const shown = (value: string | number | bigint | null) => (typeof value === "string" ? JSON.stringify(value) : String(value));
const jsonText = (value: string | number | bigint | null) => (typeof value === "bigint" ? value.toString() : JSON.stringify(value));

const CONTRACT_EXAMPLES = [
  "1000M",
  "1024Mi",
  "1.5Gi",
  "0.5",
  "+100Gi",
  "+8Gi",
  "1.500G",
  "1K",
  "01G",
  "1.G",
  "1E3",
  "+1000M",
  "1.0G",
  "",
  "0",
  "-0",
  "+0",
  "00",
  ".",
  "Gi",
  "1e1.5",
  ".5",
  "5.",
  "-.5Mi",
  "9223372036854775807",
  "9223372036854775808",
  "1n",
  "0.1n",
  "1.5n",
  "100Ei",
  "8Ei",
  "-8Ei",
  "7Ei",
  "1Ki",
  "1023Ki",
  "1024Ki",
  "0.5Ki",
  "1e-9",
  "1e-10",
  "12e6",
  "1E+3",
  "1e-1000000",
  "1e-2147483649",
  "1e4294967296",
  "1e99999999999",
  "999999999999999999",
  "1000000000000000000m",
];

const STRING_EXAMPLES = [...CONTRACT_EXAMPLES, " 1Gi ", "\u00a01Gi", "\t1Gi", "\u20281Gi", "1Gi\u3000", "\u200b1Gi"];
const NUMBER_EXAMPLES = [1.5, 0, -0, 1e21, 1e-7, 5e-324, 2 ** 63, 1024, 0.1];
const BIGINT_EXAMPLES = [0n, 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n), 10n ** 30n];

describeConformance("resource.Quantity", (oracle) => {
  it(
    "parses every text as resource.ParseQuantity does: format, String(), IsZero() and error",
    async () => {
      await compareWithGo<string, GoQuantity>(oracle(), {
        name: "ParseQuantity",
        arbitrary: quantityText,
        examples: CONTRACT_EXAMPLES,
        numRuns: 20_000,
        request: (text) => ({ op: "quantity.parse", args: { text } }),
        check: (text, go) =>
          expectSame(
            text,
            ours(JSON.stringify(text), () => parseQuantity(text)),
            go,
          ),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );

  // A string is read as the operator receives it: re-encoded by the apiserver with Go's encoder,
  // which escapes U+2028/U+2029, so UnmarshalJSON does not trim them (a raw U+2028 it would).
  it.each([
    ["a JSON string, as the apiserver re-encodes it", paddedQuantityText, true, STRING_EXAMPLES],
    ["a JSON number", quantityNumber, false, NUMBER_EXAMPLES],
    ["a JSON number, as the apiserver re-encodes it", quantityNumber, true, NUMBER_EXAMPLES],
    ["a bigint", quantityBigInt, false, BIGINT_EXAMPLES],
  ] as const)(
    "reads storage from %s as json.Unmarshal + QuantityString do",
    async (what, arbitrary, wire, examples) => {
      await compareWithGo<string | number | bigint | null, GoQuantity>(oracle(), {
        name: `Unmarshal(${what})`,
        arbitrary,
        examples: [null, ...examples],
        numRuns: 5_000,
        request: (value) => ({ op: "quantity.unmarshal", args: { json: jsonText(value), wire } }),
        check: (value, go) =>
          expectSame(
            value,
            ours(shown(value), () => stringOf(value)),
            imprecise(value) ? LOST_DIGITS : withoutFormat(go),
          ),
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});

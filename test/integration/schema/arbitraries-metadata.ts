/**
 * Generators of `metadata` for create requests: `name` and `generateName` as the apiserver checks
 * them (DNS-1123 subdomains: upper case, 253/254 characters, dots, trailing dash, empty).
 *
 * @module
 */
import fc from "fast-check";
import { ABSENT, type Mix } from "./arbitraries-common.js";

const GOOD_NAMES = ["demo", "a", "a.b.c", "0", "a-b", "x".repeat(253), `${"a".repeat(63)}.${"b".repeat(63)}`];
const BAD_NAMES = ["Demo", "x".repeat(254), "a-", "-a", "a..b", ".a", "a.", "a_b", "a b", "ä"];
const GOOD_PREFIXES = ["demo-", "a", "a.", "a-b-", "x".repeat(70), "x".repeat(253)];
const BAD_PREFIXES = ["Demo-", "-", "a_", "-a", "x".repeat(254), ".", "a..-"];

/**
 * `metadata` with a name, a generateName, both, or (bad) neither; a `namespace` equal to the
 * request's when present (another one is a 400 before validation); sometimes an unknown field
 * (the server drops it; metadata is not compared).
 */
export function metadata(mix: Mix, namespace: string): fc.Arbitrary<Record<string, unknown>> {
  const name = fc.oneof(
    fc.constantFrom(...GOOD_NAMES),
    fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,20}[a-z0-9])?$/).filter((s) => !s.includes("..") && !/[-.]\.|\.-/.test(s)),
  );
  const generateName = fc.constantFrom(...GOOD_PREFIXES);
  const names = fc.oneof(
    { arbitrary: fc.record({ name }), weight: 8 },
    { arbitrary: fc.record({ generateName }), weight: 2 },
    { arbitrary: fc.record({ name, generateName }), weight: 1 },
  );
  const badNames = fc.oneof(
    fc.record({ name: fc.constantFrom(...BAD_NAMES) }),
    fc.record({ generateName: fc.constantFrom(...BAD_PREFIXES) }),
    fc.record({ name: fc.constant(""), generateName: fc.constantFrom<unknown>(ABSENT, "", ...BAD_PREFIXES, ...GOOD_PREFIXES) }),
    fc.constant({}),
  );
  const chosen = mix.badness > 0 ? fc.oneof({ arbitrary: names, weight: 6 }, { arbitrary: badNames, weight: 1 }) : names;
  return fc
    .tuple(chosen, fc.constantFrom(ABSENT, namespace), fc.constantFrom<unknown>(ABSENT, ABSENT, ABSENT, "dropped"))
    .map(([picked, ns, unknown]) => {
      const out: Record<string, unknown> = {};
      if (ns !== ABSENT) out.namespace = ns;
      if (unknown !== ABSENT && mix.badness > 0) out.unknownMetadataField = unknown;
      for (const [key, value] of Object.entries(picked)) if (value !== ABSENT) out[key] = value;
      return out;
    });
}

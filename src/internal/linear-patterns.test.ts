import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isConditionType, isDNS1123Label, isDNS1123Subdomain, linearPattern } from "./linear-patterns.js";

// The regular expressions the API server uses (RE2 in Go); for short text V8 runs them fine.
const LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const LABEL_RE = new RegExp(`^${LABEL}$`);
const SUBDOMAIN_RE = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const CONDITION_TYPE_RE = new RegExp(`^(${LABEL}(\\.${LABEL})*\\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`);

/** Short text over the characters that matter to the patterns, so matches are frequent. */
const nameText = fc.string({ unit: fc.constantFrom("a", "z", "0", "9", "A", "-", ".", "_", "/", "!", " "), maxLength: 12 });

describe("linear name matchers agree with the regular expressions", () => {
  it("on generated text", () => {
    fc.assert(
      fc.property(nameText, (text) => {
        expect(isDNS1123Label(text)).toBe(LABEL_RE.test(text));
        expect(isDNS1123Subdomain(text)).toBe(SUBDOMAIN_RE.test(text));
        expect(isConditionType(text)).toBe(CONDITION_TYPE_RE.test(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it.each(["", "a", "a.b", "a..b", ".a", "a.", "-a", "a-", "a-b.c-d", "A", "a/B", "a./B", "/B", "a/", "a/b/c", "k8s.io/Ready_1.x"])(
    "on %j",
    (text) => {
      expect([isDNS1123Label(text), isDNS1123Subdomain(text), isConditionType(text)]).toEqual([
        LABEL_RE.test(text),
        SUBDOMAIN_RE.test(text),
        CONDITION_TYPE_RE.test(text),
      ]);
    },
  );

  it("answer on 5 MB of dotted labels, where V8's engine overflows its stack up to Node 24", () => {
    const text = `${"a.".repeat(2_500_000)}!`;
    const engine = (): string => {
      try {
        return String(SUBDOMAIN_RE.test(text));
      } catch (err) {
        return err instanceof RangeError ? "stack overflow" : `unexpected ${String(err)}`;
      }
    };
    expect(engine()).toBe(Number(process.versions.node.split(".")[0]) >= 26 ? "false" : "stack overflow");
    expect(isDNS1123Subdomain(text)).toBe(false);
    expect(isConditionType(text)).toBe(false);
    expect(isDNS1123Subdomain(text.slice(0, -2))).toBe(true);
  });
});

describe("linearPattern", () => {
  it("shows its source and flags like the regular expression, and tests with the matcher", () => {
    const pattern = linearPattern(`^${LABEL}$`, isDNS1123Label);
    expect(pattern.source).toBe(LABEL_RE.source);
    expect(pattern.toString()).toBe(LABEL_RE.toString());
    expect(pattern.test("a-b")).toBe(true);
    expect(pattern.test("a-")).toBe(false);
    expect(pattern.test(7 as unknown as string)).toBe(false);
  });
});

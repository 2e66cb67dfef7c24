/**
 * The name patterns of the API server, matched in linear time. Go's RE2 never backtracks; V8's
 * engine does, and a group repeated millions of times (`"a.".repeat(2.5e6) + "!"` against the
 * DNS-1123 subdomain pattern) overflows its stack with a `RangeError`. These scanners give the
 * same verdicts with a loop.
 *
 * @internal
 */

const isLowerAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
const isAlnum = (c: number): boolean => isLowerAlnum(c) || (c >= 0x41 && c <= 0x5a);
const isDash = (c: number): boolean => c === 0x2d;

/** Whether `text[from, to)` is non-empty, starts and ends with `edge` and has only `inner` between. */
function framed(text: string, from: number, to: number, edge: (c: number) => boolean, inner: (c: number) => boolean): boolean {
  if (to <= from || !edge(text.charCodeAt(from)) || !edge(text.charCodeAt(to - 1))) return false;
  for (let i = from + 1; i < to - 1; i++) if (!inner(text.charCodeAt(i))) return false;
  return true;
}

const labelInner = (c: number): boolean => isLowerAlnum(c) || isDash(c);
const nameInner = (c: number): boolean => isAlnum(c) || isDash(c) || c === 0x5f || c === 0x2e;

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` on `text[from, to)`. */
function isLabelAt(text: string, from: number, to: number): boolean {
  return framed(text, from, to, isLowerAlnum, labelInner);
}

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` on `text[from, to)`: dot-separated labels. */
function isSubdomainAt(text: string, from: number, to: number): boolean {
  let start = from;
  for (;;) {
    const dot = text.indexOf(".", start);
    const end = dot === -1 || dot >= to ? to : dot;
    if (!isLabelAt(text, start, end)) return false;
    if (end === to) return true;
    start = end + 1;
  }
}

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`: a DNS-1123 label. */
export function isDNS1123Label(text: string): boolean {
  return isLabelAt(text, 0, text.length);
}

/** A DNS-1123 subdomain: one or more labels joined by dots. */
export function isDNS1123Subdomain(text: string): boolean {
  return isSubdomainAt(text, 0, text.length);
}

/**
 * A condition type: `CamelCase` or `foo.example.com/CamelCase`, the name part
 * `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. Neither part may hold a `/`.
 */
export function isConditionType(text: string): boolean {
  const slash = text.indexOf("/");
  if (slash === -1) return framed(text, 0, text.length, isAlnum, nameInner);
  return isSubdomainAt(text, 0, slash) && framed(text, slash + 1, text.length, isAlnum, nameInner);
}

/**
 * A `RegExp` that zod and the CRD generator see as `source`, whose `test` runs `matches` instead
 * of V8's backtracking engine. zod's regex check calls only `test` and `toString`; the JSON Schema
 * takes `source`.
 */
class LinearPattern extends RegExp {
  readonly #matches: (text: string) => boolean;

  constructor(source: string, matches: (text: string) => boolean) {
    super(source);
    this.#matches = matches;
  }

  override test(text: string): boolean {
    return typeof text === "string" && this.#matches(text);
  }
}

/** `source` as a pattern for `z.string().regex()`, matched by `matches` in linear time. */
export function linearPattern(source: string, matches: (text: string) => boolean): RegExp {
  return new LinearPattern(source, matches);
}

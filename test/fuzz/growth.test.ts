/**
 * Time and size bounds as growth ratios: doubling a hostile input may cost at most ×2.8 the time of
 * a reader or a `safeParse` (halfway between linear and quadratic) and ×2.2 the size of what it returns; an int64 reader's time does
 * not grow at all past the 19th digit. Time is CPU time (see `support/growth.ts`).
 *
 * @module
 */
import { describe, expect, it } from "vitest";
import { CocoonSetSchema, CocoonSetStatusSchema } from "../../src/apis/v1/index.js";
import * as meta from "../../src/meta/index.js";
import { nested } from "./support/hostile-values.js";
import { MAX_GROWTH, MAX_TIME_GROWTH, sizeGrowth, timeGrowth } from "../../src/internal/growth.test-util.js";

// 256 KiB (the annotation size limit) against 512 KiB: both fit the CPU cache, whose edge (here
// 2 MiB a core) alone costs ×4 for a fast scan. Names double from 256 KB to 512 KB for the same reason.
const KIB_256 = 262_144;
const NAME_UNITS = 131_072;
const withAnnotation = (key: string, value: string): meta.Annotated => ({ metadata: { annotations: { [key]: value } } });
const nines = (n: number): string => "9".repeat(n);
const cocoonSet = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", ...metadata },
  spec: { agent: { image: "img" } },
  ...extra,
});
const condition = (type: unknown) => ({ type, status: "True", reason: "Ok", message: "", lastTransitionTime: "2024-01-02T03:04:05Z" });
const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map(({ path, message }) => ({ path: path.map(String), message })) ?? [];

type Row = [name: string, make: (n: number) => unknown, run: (input: unknown) => unknown, n: number];
/** A table row: `run` is timed on `make(n)` and `make(2n)`. */
const row = <T>(name: string, make: (n: number) => T, run: (input: T) => unknown, n: number): Row => [
  name,
  make,
  run as (input: unknown) => unknown,
  n,
];

// Go's ParseInt stops at the first digit past the range, and so do we: an all-9s value costs the
// same at any length (the quadratic BigInt parse of issue 9 grew ×2.4 here; a scan would grow ×2).
const PAST_THE_RANGE: Row[] = [
  row(
    "readCocoonSetGeneration, all 9s",
    (n) => withAnnotation(meta.Annotation.CocoonSetGeneration, nines(n)),
    meta.readCocoonSetGeneration,
    KIB_256,
  ),
  row(
    "readLifecycleStatus, all 9s",
    (n) => withAnnotation(meta.Annotation.LifecycleObservedGeneration, nines(n)),
    meta.readLifecycleStatus,
    KIB_256,
  ),
  row("parseVMRuntime, all 9s", (n) => withAnnotation(meta.Annotation.VNCPort, nines(n)), meta.parseVMRuntime, KIB_256),
];

const READERS: Row[] = [
  row(
    "readCocoonSetGeneration, leading zeros",
    (n) => withAnnotation(meta.Annotation.CocoonSetGeneration, `${"0".repeat(n)}7`),
    meta.readCocoonSetGeneration,
    KIB_256,
  ),
  row(
    "extractAgentSlot, all 9s",
    (n) => `vk-p-d-${nines(n)}`,
    (name) => meta.extractAgentSlot("p", "d", name),
    KIB_256,
  ),
  row(
    "roleForPod, all 9s",
    (n) => `vk-p-d-${nines(n)}`,
    (name: string) => meta.roleForPod({ metadata: { namespace: "p", ownerReferences: [{ kind: "CocoonSet", name: "d" }] } }, name),
    KIB_256,
  ),
  row(
    "isPodReady, null conditions",
    (n) => ({ status: { conditions: new Array<null>(n).fill(null) } }) as unknown as meta.PodLike,
    meta.isPodReady,
    KIB_256,
  ),
  row(
    "cocoonSetOwnerName, null owners",
    (n) => new Array<null>(n).fill(null) as unknown as meta.OwnerReferenceLike[],
    meta.cocoonSetOwnerName,
    KIB_256,
  ),
  row("isQuantity, digits then garbage", (n) => `${"1".repeat(n)}!`, meta.isQuantity, KIB_256),
];

const SCHEMAS: Row[] = [
  row(
    "a dotted metadata.name",
    (n) => cocoonSet({ name: `${"a.".repeat(n)}!` }),
    (set) => issues(CocoonSetSchema.safeParse(set)),
    NAME_UNITS,
  ),
  row(
    "a dotted generateName",
    (n) => cocoonSet({ name: undefined, generateName: `${"a.".repeat(n)}!` }),
    (set) => issues(CocoonSetSchema.safeParse(set)),
    NAME_UNITS,
  ),
  row(
    "a dotted condition type",
    (n) => ({ conditions: [condition(`${"a.".repeat(n)}/B!`)] }),
    (status) => issues(CocoonSetStatusSchema.safeParse(status)),
    NAME_UNITS,
  ),
  row(
    "list-map keys nested n levels deep",
    (n) => ({ conditions: [condition(nested(n, "a", 1)), condition(nested(n, "a", 1))] }),
    (status) => issues(CocoonSetStatusSchema.safeParse(status)),
    // Past ~5,000 levels the walk leaves the CPU cache and even a bare pointer chase grows ×2.5 to
    // ×4 a doubling; 1,000 levels show an algorithm's growth (10,000 are checked in apis-v1.test.ts).
    1_000,
  ),
  row(
    "n conditions with distinct types",
    (n) => ({ conditions: Array.from({ length: n }, (_, i) => condition(`T${String(i)}`)) }),
    (status) => issues(CocoonSetStatusSchema.safeParse(status)),
    1_024,
  ),
];

/** The most a doubled input may cost where the work does not depend on its length. */
const MAX_FLAT = 1.5;

// CPU time still wobbles on a loaded machine (×2.21 was seen on a linear walk with 15 runnable
// processes on 2 cores); a real quadratic grows ×4 and fails every try.
describe("growth when a hostile input doubles", { retry: 2 }, () => {
  it.each(PAST_THE_RANGE)("%s: time ×1.5 at most (constant)", (_name, make, run, n) => {
    expect(timeGrowth(make, run, n, MAX_FLAT)).toBeLessThanOrEqual(MAX_FLAT);
  });

  it.each(READERS)("%s: time ×2.8 at most", (_name, make, run, n) => {
    expect(timeGrowth(make, run, n)).toBeLessThanOrEqual(MAX_TIME_GROWTH);
  });

  it.each(SCHEMAS)("safeParse of %s: time ×2.8, issue text ×2.2 at most", (_name, make, run, n) => {
    expect(timeGrowth(make, run, n)).toBeLessThanOrEqual(MAX_TIME_GROWTH);
    expect(sizeGrowth(make, run, n)).toBeLessThanOrEqual(MAX_GROWTH);
  });
});

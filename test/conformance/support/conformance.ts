import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { Oracle, type OracleRequest } from "./oracle.js";
import { GO_MISSING, REQUIRE_GO_ENV, ensureOracle, goVersion } from "./toolchain.js";

/**
 * Declares a conformance suite that shares one Go oracle process. Without a Go toolchain the
 * suite is one skipped test saying so (or a failing one when `COCOON_CONFORMANCE_REQUIRE_GO=1`).
 */
export function describeConformance(title: string, body: (oracle: () => Oracle) => void): void {
  const version = goVersion();
  describe(title, () => {
    if (version === undefined) {
      if (process.env[REQUIRE_GO_ENV] === "1") {
        it(GO_MISSING, () => {
          throw new Error(`no \`go\` command on PATH (or $GO), and ${REQUIRE_GO_ENV}=1 requires the conformance suite`);
        });
      } else {
        console.warn(`[conformance] ${GO_MISSING} (${title}); set ${REQUIRE_GO_ENV}=1 to fail instead`);
        it.skip(GO_MISSING, () => undefined);
      }
      return;
    }
    let oracle: Oracle | undefined;
    beforeAll(async () => {
      oracle = new Oracle(await ensureOracle(version));
    }, 600_000);
    afterAll(async () => {
      await oracle?.close();
    });
    body(() => {
      if (oracle === undefined) throw new Error("the Go oracle did not start");
      return oracle;
    });
  });
}

/** Per-test timeout: generous, because a cold machine also builds the oracle (done in `beforeAll`). */
export const CONFORMANCE_TIMEOUT_MS = 120_000;

/** One property compared with Go: how to generate a case, ask Go about it, and judge our answer. */
export interface Comparison<C, A> {
  /** Shown in the summary line. */
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<C>;
  /** Hand-picked cases, checked before the generated ones. */
  readonly examples?: readonly C[];
  readonly numRuns: number;
  request(c: C): OracleRequest;
  /** Throws (see {@link expectSame}) when our result differs from Go's answer; may be async. */
  check(c: C, go: A): void | Promise<void>;
}

const SEED = process.env.CONFORMANCE_SEED === undefined ? undefined : Number(process.env.CONFORMANCE_SEED);

/**
 * Generates the cases, sends them to Go in one batch, then checks each one with fast-check, so a
 * failure is shrunk (shrunk cases go to Go one by one) and reported with its seed. Returns how
 * many cases were compared.
 */
export async function compareWithGo<C, A>(oracle: Oracle, comparison: Comparison<C, A>): Promise<number> {
  const seed = SEED ?? Math.floor(Math.random() * 0x7fffffff);
  const examples = comparison.examples ?? [];
  const cases = [...examples, ...fc.sample(comparison.arbitrary, { seed, numRuns: comparison.numRuns })];
  const requests = cases.map((c) => comparison.request(c));
  const answers = await oracle.batch<A>(requests);
  const known = new Map(requests.map((request, i) => [JSON.stringify(request), answers[i] as A]));
  let late = 0;
  await fc.assert(
    fc.asyncProperty(comparison.arbitrary, async (c) => {
      const request = comparison.request(c);
      const key = JSON.stringify(request);
      let go = known.get(key);
      if (go === undefined) {
        late++;
        known.set(key, (go = await oracle.ask<A>(request)));
      }
      await comparison.check(c, go);
    }),
    { seed, numRuns: comparison.numRuns, examples: examples.map((c) => [c] as [C]) },
  );
  const compared = examples.length + comparison.numRuns;
  const batched = late === 0 ? "all batched" : `${String(late)} not batched`;
  console.info(`[conformance] ${comparison.name}: ${String(compared)} cases agree with Go (seed ${String(seed)}, ${batched})`);
  return compared;
}

/** Throws a readable disagreement unless `ours` deep-equals `go`. */
export function expectSame(c: unknown, ours: unknown, go: unknown): void {
  if (isDeepStrictEqual(ours, go)) return;
  throw new Error(`TypeScript and Go disagree\n  case: ${show(c)}\n  go:   ${show(go)}\n  ts:   ${show(ours)}`);
}

/** JSON for messages, ASCII only so that no space or separator hides, with bigints as `123n`. */
export function show(value: unknown): string {
  const json = JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v.toString()}n` : v)) ?? String(value);
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

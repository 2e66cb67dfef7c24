/**
 * Every schema, guard and validator of `./apis/v1`, fed hostile values. `safeParse` returns a
 * result for any data and lets through only the input's own exception (a trap of the value, or
 * the engine's `TypeError` for a revoked proxy); the guards, `...OrDefault` helpers and update
 * validators never throw at all; nothing writes to its input.
 *
 * @module
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as v1 from "../../src/apis/v1/index.js";
import { type Recipe, TRAP, hostileKubeObject, hostileValue, materialize, namedCases } from "./support/hostile-values.js";
import { watchWrites } from "./support/write-recorder.js";

const RUNS = 200;
const recipe = fc.oneof(hostileKubeObject, hostileValue("name"));

/** Whether `error` was raised by the input itself rather than by our code. */
const isInputsOwn = (error: unknown): boolean =>
  error === TRAP || (error instanceof TypeError && error.message.includes("on a proxy that has been revoked"));

interface Parser {
  safeParse(value: unknown): { success: boolean };
}

const exports: [string, unknown][] = Object.entries(v1);
const schemas = exports.filter((entry): entry is [string, Parser] => typeof (entry[1] as Partial<Parser> | null)?.safeParse === "function");
const functions = exports.filter((entry): entry is [string, (...args: never[]) => unknown] => typeof entry[1] === "function");
const guards = functions.filter(([name]) => /^is[A-Z]/.test(name));
const orDefaults = functions.filter(([name]) => name.endsWith("OrDefault"));
const validators = functions.filter(([name]) => name.startsWith("validate"));

/** `schema.safeParse` of the recipe's value (or `value`, a part of it) returns a result or lets the input's own exception through. */
function expectSafeParse(schema: Parser, r: Recipe, value: unknown = materialize(r)): void {
  const watched = watchWrites(value);
  let outcome: unknown;
  try {
    outcome = typeof schema.safeParse(watched.value).success;
  } catch (error) {
    outcome = isInputsOwn(error) ? "the input's own exception" : error;
  }
  expect(["boolean", "the input's own exception"], JSON.stringify(r)).toContain(outcome);
  expect(watched.writes).toEqual([]);
}

/** Calls `fn` on the materialized recipes through write-watching proxies; returns what it returned and the writes. */
function call<T>(fn: (...args: never[]) => T, recipes: readonly Recipe[]): { result: T; writes: readonly string[] } {
  const watched = recipes.map((r) => watchWrites(materialize(r)));
  const result = fn(...(watched.map((w) => w.value) as never[]));
  return { result, writes: watched.flatMap((w) => w.writes) };
}

describe("./apis/v1 on hostile values", () => {
  it("finds every schema and function export", () => {
    expect(schemas).toHaveLength(33);
    expect(functions.map(([name]) => name).filter((name) => ![...guards, ...orDefaults, ...validators].some(([n]) => n === name))).toEqual(
      [],
    );
    expect([guards.length, orDefaults.length, validators.length]).toEqual([12, 6, 2]);
  });

  it.each(schemas)("%s.safeParse returns a result, or lets the input's own exception through", (_name, schema) => {
    fc.assert(
      fc.property(recipe, (r) => expectSafeParse(schema, r)),
      { numRuns: RUNS },
    );
  });

  // Each named case (a 5 MB dotted name, cyclic, 10,000-deep or bigint list-map keys, ...) at each
  // place of a CocoonSet, through the schemas that walk it or the part of it they validate.
  const WHOLE: Record<string, (set: Record<string, unknown>) => unknown> = {
    CocoonSetSchema: (set) => set,
    CocoonHibernationSchema: (set) => ({ ...set, kind: "CocoonHibernation" }),
    CocoonSetSpecSchema: (set) => set.spec,
    CocoonSetStatusSchema: (set) => set.status,
    ObjectMetaSchema: (set) => set.metadata,
  };
  it.each(schemas.filter(([name]) => name in WHOLE))("%s.safeParse survives every named case", (name, schema) => {
    const cases = namedCases();
    for (const r of cases) expectSafeParse(schema, r, WHOLE[name]?.(materialize(r) as Record<string, unknown>));
    expect(cases.length).toBeGreaterThan(400);
  });

  it.each(guards)("%s never throws and answers a boolean", (_name, guard) => {
    fc.assert(
      fc.property(recipe, (r) => {
        const { result, writes } = call(guard, [r]);
        expect(typeof result).toBe("boolean");
        expect(writes).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(orDefaults)("%s never throws: a falsy value takes the default, anything else passes through", (_name, orDefault) => {
    fc.assert(
      fc.property(recipe, (r) => {
        const value = materialize(r);
        const result = orDefault(value as never);
        if (value) expect(result).toBe(value);
        else expect(typeof result === "string" && result !== "").toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(validators)("%s never throws and answers a ValidationResult", (_name, validate) => {
    fc.assert(
      fc.property(recipe, recipe, (before, after) => {
        const { result, writes } = call(validate as (a: never, b: never) => v1.ValidationResult, [before, after]);
        expect(result.success || result.issues.length === 1).toBe(true);
        expect(writes).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});

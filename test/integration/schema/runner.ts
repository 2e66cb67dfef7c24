/**
 * Runs a scenario: samples fast-check cases, sends them to the server with bounded concurrency,
 * compares each answer with zod's, and shrinks the first mismatch (one request per shrink step)
 * so the report shows a minimal input, the server's answer and zod's.
 *
 * @module
 */
import fc from "fast-check";
import type { ApiAnswer } from "./api-client.js";
import { mapWithConcurrency } from "./api-client.js";
import type { SchemaAnswer } from "./schema-side.js";
import { compareVerdicts, serverVerdict, type ComparedParts, type Verdict } from "./verdict.js";

/** One compared case: its differences (empty when server and zod agree) and both answers. */
export interface CaseOutcome {
  readonly differences: readonly string[];
  readonly accepted: boolean;
  /** What the case exercised on the server: cause reasons, rule messages, `null` input (for the coverage tally). */
  readonly labels: readonly string[];
  readonly server: ApiAnswer;
  readonly schema: SchemaAnswer;
}

/** Sends one case to the server and computes zod's answer for it. */
export interface CaseCheck<C> {
  /** Fields that carry CEL rules, in the server's notation. */
  readonly ruleFields: readonly string[];
  /** What to compare on accepted objects. */
  readonly parts: ComparedParts;
  /** The request to the server. */
  send(input: C): Promise<ApiAnswer>;
  /** zod's answer for the same input. */
  expect(input: C): SchemaAnswer;
}

/** Labels for the coverage tally: `accepted`, each cause reason, each rule message (abridged), `null input`. */
function labelsOf(server: ApiAnswer, verdict: Verdict, schema: SchemaAnswer): string[] {
  const causes = (server.body as { details?: { causes?: { reason?: string }[] } } | undefined)?.details?.causes ?? [];
  const labels = new Set<string>(verdict.accepted ? ["accepted"] : [`rejected ${server.status}`]);
  for (const cause of causes) labels.add(cause.reason ?? "?");
  for (const message of verdict.ruleMessages) labels.add(`rule: ${message.slice(0, 40)}`);
  if (schema.nullProperties > 0) labels.add("null input");
  return [...labels];
}

/** Compares the server's and zod's answers for one case. */
export async function compareCase<C>(check: CaseCheck<C>, input: C): Promise<CaseOutcome> {
  const [server, schema] = [await check.send(input), check.expect(input)];
  const verdict = serverVerdict(server, check.ruleFields);
  const differences = [...compareVerdicts(verdict, schema.verdict, check.parts), ...schema.invariantErrors];
  return { differences, accepted: verdict.accepted, labels: labelsOf(server, verdict, schema), server, schema };
}

/** Shortens long strings (`"xxx…(254 chars)"`) so a printed case stays readable. */
function abbreviate(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > 240 ? `${value.slice(0, 8)}…(${value.length} chars)` : value;
}

/** What the server answered, without the noise: causes for a refusal, the stored spec/status otherwise. */
function printServer(answer: ApiAnswer): unknown {
  const body = answer.body as { details?: { causes?: unknown }; message?: string; spec?: unknown; status?: unknown } | undefined;
  if (answer.status >= 300) return { code: answer.status, causes: body?.details?.causes ?? body?.message };
  return { code: answer.status, spec: body?.spec, status: body?.status };
}

/** A readable account of one mismatching case. */
export function describeMismatch(input: unknown, outcome: CaseOutcome): string {
  return [
    `input:  ${JSON.stringify(input, abbreviate)}`,
    `server: ${JSON.stringify(printServer(outcome.server), abbreviate)}`,
    `zod:    ${JSON.stringify(outcome.schema.printable, abbreviate)}`,
    ...outcome.differences.map((difference) => `  ≠ ${difference}`),
  ].join("\n");
}

/** The summary of a scenario run. */
export interface ScenarioReport {
  readonly cases: number;
  readonly accepted: number;
  readonly rejected: number;
  /** How many cases carried each label (see {@link CaseOutcome.labels}). */
  readonly tally: Readonly<Record<string, number>>;
  /** Every mismatching case, described. */
  readonly mismatches: readonly string[];
  /** The first mismatch after shrinking, described by fast-check's report. */
  readonly shrunk?: string;
}

/** Options of {@link runScenario}. */
export interface RunOptions {
  readonly numRuns: number;
  readonly seed: number;
  readonly concurrency: number;
}

/**
 * Runs `numRuns` generated cases of `arbitrary` through `check` (the same cases fast-check would
 * generate for `seed`), `concurrency` at a time; on a mismatch, replays fast-check from that case
 * so it shrinks it.
 */
export async function runScenario<C>(arbitrary: fc.Arbitrary<C>, check: CaseCheck<C>, options: RunOptions): Promise<ScenarioReport> {
  const { numRuns, seed, concurrency } = options;
  const inputs = fc.sample(arbitrary, { numRuns, seed });
  const outcomes = await mapWithConcurrency(inputs, concurrency, (input) => compareCase(check, input));
  const mismatches = outcomes.flatMap((outcome, index) =>
    outcome.differences.length === 0 ? [] : [describeMismatch(inputs[index], outcome)],
  );
  const accepted = outcomes.filter((outcome) => outcome.accepted).length;
  const tally: Record<string, number> = {};
  for (const label of outcomes.flatMap((outcome) => outcome.labels)) tally[label] = (tally[label] ?? 0) + 1;
  const report = { cases: inputs.length, accepted, rejected: inputs.length - accepted, tally, mismatches };
  const first = outcomes.findIndex((outcome) => outcome.differences.length > 0);
  if (first < 0) return report;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    const outcome = await compareCase(check, input);
    if (outcome.differences.length > 0) throw new Error(describeMismatch(input, outcome));
  });
  const details = await fc.check(property, { seed, numRuns, path: String(first) });
  return {
    ...report,
    shrunk: details.failed
      ? String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)
      : "(did not reproduce)",
  };
}

/** The summary of a table of named cases. */
export interface TableReport {
  readonly cases: number;
  readonly accepted: number;
  /** Every mismatching case, named and described. */
  readonly mismatches: readonly string[];
}

/** Compares every named case of `cases` through `check`, `concurrency` at a time. */
export async function runTable<C>(
  cases: readonly (readonly [string, C])[],
  check: CaseCheck<C>,
  concurrency: number,
): Promise<TableReport> {
  const outcomes = await mapWithConcurrency(cases, concurrency, ([, input]) => compareCase(check, input));
  const mismatches = outcomes.flatMap((outcome, index) => {
    const [name, input] = cases[index] ?? ["?", undefined];
    return outcome.differences.length === 0 ? [] : [`${name}\n${describeMismatch(input, outcome)}`];
  });
  return { cases: cases.length, accepted: outcomes.filter((outcome) => outcome.accepted).length, mismatches };
}

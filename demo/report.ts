/**
 * The demo's console output: numbered steps, one line per actor action, and checks that end the
 * run with a clear message when they do not hold.
 *
 * @module
 */
import type { Annotation, Annotated } from "../src/index.js";

/** Thrown by {@link check} when a step's state is not what the contract says. */
export class CheckFailed extends Error {
  override name = "CheckFailed";
}

/** Prints the heading of step `n`. */
export function step(n: number, title: string): void {
  console.log(`\n${n}. ${title}`);
}

/** Prints what `actor` (operator, kubelet, user, server, schema, scheduler) did or saw; more lines are indented under it. */
export function show(actor: string, text: string, ...more: string[]): void {
  console.log(`   ${actor.padEnd(9)} ${text}`);
  for (const line of more) console.log(`   ${"".padEnd(9)} ${line}`);
}

/**
 * Prints `✓ check n: what` when every fact holds, else throws {@link CheckFailed} listing the
 * facts that do not.
 */
export function check(n: number, what: string, facts: Readonly<Record<string, boolean>>): void {
  const failed = Object.entries(facts).filter(([, holds]) => !holds);
  if (failed.length > 0) throw new CheckFailed(`check ${n} failed: ${what}\n${failed.map(([fact]) => `   not true: ${fact}`).join("\n")}`);
  console.log(`   ✓ check ${n}: ${what}`);
}

/** Compares two values as JSON with sorted keys (client-node's typed objects order fields their own way). */
export function sameJSON(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown) =>
    JSON.stringify(v, (_key, value: unknown) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)))
        : value,
    );
  return sorted(a) === sorted(b);
}

/** Formats the cocoon annotations of `obj` named by `keys` as `key=value` (`key=<unset>` when missing). */
export function annotations(obj: Annotated, ...keys: Annotation[]): string {
  const all = obj.metadata?.annotations ?? {};
  return keys.map((key) => `${key}=${all[key] ?? "<unset>"}`).join("  ");
}

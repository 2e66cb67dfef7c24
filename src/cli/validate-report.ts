import type { CheckResult } from "./check-manifest.js";
import { type Finding, describeManifest, formatFinding, locationOf, sourceOf } from "./findings.js";

/**
 * Formats results for people: one line per finding, `FILE:LINE: document N (KIND NS/NAME): PATH:
 * MESSAGE`, a `valid` or `skipped` line for the others, `warning:` lines under `--validate=warn`,
 * then a count.
 *
 * @example
 * ```text
 * demo.yaml:14: document 2 (CocoonSet default/bad): spec.agent.image: Required value
 * demo.yaml:20: document 3 (ConfigMap default/cfg): skipped (not a CocoonSet or CocoonHibernation)
 * 0 valid, 1 invalid, 1 skipped
 * ```
 */
export function formatTextReport(results: readonly CheckResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const { manifest } = result;
    const head = `${manifest.file}:${manifest.line}: ${describeManifest(manifest, result)}`;
    if (result.skipped) lines.push(`${head}: skipped (${result.reason ?? "not checked"})`);
    else if (result.valid)
      lines.push(`${head}: valid${result.old === undefined ? "" : ` (update of ${result.old.file} ${locationOf(result.old)})`}`);
    for (const error of result.errors) lines.push(formatFinding(manifest, error, result));
    for (const warning of result.warnings)
      lines.push(formatFinding(manifest, { ...warning, message: `warning: ${warning.message}` }, result));
  }
  const count = (pick: (r: CheckResult) => boolean) => results.filter(pick).length;
  lines.push(`${count((r) => r.valid && !r.skipped)} valid, ${count((r) => !r.valid)} invalid, ${count((r) => r.skipped)} skipped`);
  return `${lines.join("\n")}\n`;
}

/** One result as `--output json` prints it. */
export interface JSONResult {
  /** The file, or `<stdin>`. */
  readonly file: string;
  /** The 1-based document index. */
  readonly document: number;
  /** The index in `items`, for an object read from a List. */
  readonly item?: number;
  /** The line where the object starts. */
  readonly line: number;
  /** `kind`, or `null`. */
  readonly kind: string | null;
  /** `metadata.namespace`, or `null`. */
  readonly namespace: string | null;
  /** `metadata.name`, or `null`. */
  readonly name: string | null;
  /** `false` only when there are errors. */
  readonly valid: boolean;
  /** `true` for kinds that are not checked. */
  readonly skipped: boolean;
  /** Why it was skipped. */
  readonly reason?: string;
  /** The errors, by line: `{ path, line, message }`. */
  readonly errors: readonly Finding[];
  /** The warnings under `--validate=warn`, when there are any. */
  readonly warnings?: readonly Finding[];
  /** The object it was checked against as an update. */
  readonly update?: { readonly file: string; readonly document: number; readonly item?: number };
  /** The stored form of a valid object (with `--defaults`). */
  readonly object?: unknown;
}

/** Converts results to the `--output json` shape; `withObjects` adds each valid object's stored form. */
export function toJSONResults(results: readonly CheckResult[], withObjects: boolean): JSONResult[] {
  return results.map((r) => ({
    ...sourceOf(r.manifest),
    line: r.manifest.line,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    valid: r.valid,
    skipped: r.skipped,
    ...(r.reason === undefined ? {} : { reason: r.reason }),
    errors: r.errors,
    ...(r.warnings.length === 0 ? {} : { warnings: r.warnings }),
    ...(r.old === undefined ? {} : { update: sourceOf(r.old) }),
    ...(withObjects && r.object !== undefined ? { object: r.object } : {}),
  }));
}

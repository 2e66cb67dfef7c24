import { CliError, type ParsedArgs, checkFileOperands, fieldValidation, outputFormat, printErrors, stringOption } from "./args.js";
import { type CheckResult, checkManifest } from "./check-manifest.js";
import { type Finding, describeManifest, formatFinding, identityOf, locationOf, sourceOf } from "./findings.js";
import { type CliIO, loadInputs, toJSON, toYAMLStream } from "./io.js";
import type { Manifest } from "./manifests.js";

/**
 * Indexes the objects of `--old` by kind and name, so each document finds its old object in
 * constant time: same kind, namespace and name; when one side leaves the namespace out (a
 * manifest relying on the current namespace, an old object dumped by `kubectl get`), the only old
 * object of that kind and name. `undefined` when nothing (or nothing unambiguous) matches: the
 * document is then checked as a create.
 */
export function oldObjectFinder(olds: readonly Manifest[]): (manifest: Manifest) => Manifest | undefined {
  const byName = new Map<string, { old: Manifest; namespace: string | null }[]>();
  for (const old of olds) {
    const { kind, namespace, name } = identityOf(old.value);
    if (kind === null || name === null) continue;
    const key = JSON.stringify([kind, name]);
    const list = byName.get(key) ?? [];
    if (list.length === 0) byName.set(key, list);
    list.push({ old, namespace });
  }
  return (manifest) => {
    const { kind, namespace, name } = identityOf(manifest.value);
    const sameName = kind === null || name === null ? undefined : byName.get(JSON.stringify([kind, name]));
    if (sameName === undefined) return undefined;
    const exact = sameName.filter((o) => o.namespace === namespace);
    if (exact.length > 0) return exact.at(-1)?.old;
    const loose = sameName.filter((o) => namespace === null || o.namespace === null);
    return loose.length === 1 ? loose[0]?.old : undefined;
  };
}

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
function formatTextReport(results: readonly CheckResult[]): string {
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
interface JSONResult {
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
function toJSONResults(results: readonly CheckResult[], withObjects: boolean): JSONResult[] {
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

/**
 * Runs `cocoon-common validate [--old FILE] [--output text|json] [--defaults] [--validate MODE]
 * FILE|DIR... | -` and resolves to the exit status: 0 when every checked object is valid, 1 when
 * one is not, 2 when a file could not be read (the others are still reported).
 *
 * @param parsed - The command's arguments, `--help` already handled.
 * @throws `CliError` for bad arguments or an unreadable `--old` file (exit status 2).
 */
export async function validateCommand(parsed: ParsedArgs, io: CliIO): Promise<number> {
  checkFileOperands("validate", parsed, ["old"]);
  const format = outputFormat(parsed);
  const mode = fieldValidation(parsed);
  const oldFile = stringOption(parsed, "old");

  let findOld: (manifest: Manifest) => Manifest | undefined = () => undefined;
  if (oldFile !== undefined) {
    const olds = await loadInputs(io, [oldFile], mode === "strict");
    if (olds.failures.length > 0) throw new CliError("ERR_CLI_INPUT", olds.failures.map((f) => `--old: ${f.message}`).join("\n"));
    findOld = oldObjectFinder(olds.manifests);
  }
  const { manifests, failures } = await loadInputs(io, parsed.positionals, mode === "strict");
  const results = manifests.map((m) => checkManifest(m, findOld(m), mode));
  const withObjects = parsed.values.defaults === true;
  const report = results.length > 0 || failures.length === 0;

  if (format === "json") {
    io.stdout(`${toJSON(toJSONResults(results, withObjects))}\n`);
  } else if (withObjects) {
    const objects = results.flatMap((r) => (r.object === undefined ? [] : [r.object]));
    if (objects.length > 0) io.stdout(toYAMLStream(objects));
    if (report) io.stderr(formatTextReport(results));
  } else if (report) {
    io.stdout(formatTextReport(results));
  }
  printErrors(io, "validate", failures);
  if (failures.length > 0) return 2;
  return results.some((r) => !r.valid) ? 1 : 0;
}

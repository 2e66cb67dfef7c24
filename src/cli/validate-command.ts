import { CliError, type ParsedArgs, checkFileOperands, fieldValidation, outputFormat, printErrors, stringOption } from "./args.js";
import { checkManifest } from "./check-manifest.js";
import { identityOf } from "./findings.js";
import { type CliIO, loadInputs, toJSON, toYAMLStream } from "./io.js";
import type { Manifest } from "./manifests.js";
import { formatTextReport, toJSONResults } from "./validate-report.js";

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

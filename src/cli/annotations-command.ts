import { type ParsedArgs, checkFileOperands, outputFormat, printErrors } from "./args.js";
import { readAnnotationsView } from "./annotations-view.js";
import { describeManifest, findingAt, formatFinding, identityOf, sourceOf } from "./findings.js";
import { type CliIO, loadInputs, toJSON, toYAMLStream } from "./io.js";

/**
 * Runs `cocoon-common annotations [--output text|json] FILE|DIR... | -`: prints the typed view of
 * each object's cocoon annotations and resolves to the exit status: 1 when an object has an
 * annotation that is not a string, 2 when a file could not be read (the others are still shown), else 0.
 *
 * @param parsed - The command's arguments, `--help` already handled.
 * @throws `CliError` for bad arguments (exit status 2).
 */
export async function annotationsCommand(parsed: ParsedArgs, io: CliIO): Promise<number> {
  checkFileOperands("annotations", parsed);
  const format = outputFormat(parsed);
  const { manifests, failures } = await loadInputs(io, parsed.positionals);
  const readings = manifests.map((manifest) => {
    const reading = readAnnotationsView(manifest.value);
    const errors = reading.errors.map(({ path, message }) => findingAt(manifest, path, message));
    return { manifest, ...reading, errors };
  });

  if (format === "json") {
    const results = readings.map(({ manifest, view, skipped, notes, errors }) => ({
      ...sourceOf(manifest),
      line: manifest.line,
      ...identityOf(manifest.value),
      annotations: view ?? null,
      ...(skipped === undefined ? {} : { skipped: true, reason: skipped }),
      notes,
      errors,
    }));
    io.stdout(`${toJSON(results)}\n`);
  } else {
    const docs = readings.flatMap(({ manifest, view, skipped, notes }) => {
      const head = `# ${manifest.file}:${manifest.line}: ${describeManifest(manifest)}`;
      if (skipped !== undefined) return [`${head}: skipped (${skipped})\n`];
      if (view === undefined) return [];
      return [`${head}\n${toYAMLStream([view])}${notes.map((note) => `# note: ${note}\n`).join("")}`];
    });
    if (docs.length > 0) io.stdout(docs.join("---\n"));
    for (const { manifest, errors } of readings) {
      for (const error of errors) io.stderr(`${formatFinding(manifest, error)}\n`);
    }
  }
  printErrors(io, "annotations", failures);
  if (failures.length > 0) return 2;
  return readings.some((r) => r.errors.length > 0) ? 1 : 0;
}

import { outputFormat, parseCommandArgs } from "./args.js";
import { readAnnotationsView } from "./annotations-view.js";
import { usageError } from "./cli-error.js";
import { formatFieldPath } from "./field-path.js";
import { COMMAND_HELP } from "./help.js";
import { describeManifest, formatFinding, identityOf, sourceOf } from "./identity.js";
import type { CliIO } from "./io.js";
import { toJSON } from "./json.js";
import { loadManifests } from "./load-manifests.js";
import { toYAMLStream } from "./yaml-output.js";

const OPTIONS = { output: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } } as const;

/**
 * Runs `cocoon-common annotations [--output text|json] FILE... | -`: prints the typed view of each
 * object's cocoon annotations and resolves to the exit status (1 when an object has an annotation
 * that is not a string, else 0).
 *
 * @throws `CliError` for bad arguments or unreadable input (exit status 2).
 */
export async function annotationsCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (parsed.values.help === true) {
    io.stdout(COMMAND_HELP.annotations);
    return 0;
  }
  const format = outputFormat(parsed);
  if (parsed.positionals.length === 0) throw usageError("annotations needs at least one FILE, or - for stdin");
  if (parsed.positionals.filter((f) => f === "-").length > 1) throw usageError("standard input (-) can be read only once");

  const readings = (await loadManifests(io, parsed.positionals)).flat().map((manifest) => {
    const reading = readAnnotationsView(manifest.value);
    const errors = reading.errors.map(({ path, message }) => ({ path: formatFieldPath(path), line: manifest.lineOf(path), message }));
    return { manifest, ...reading, errors };
  });

  if (format === "json") {
    const results = readings.map(({ manifest, view, notes, errors }) => ({
      ...sourceOf(manifest),
      line: manifest.line,
      ...identityOf(manifest.value),
      annotations: view ?? null,
      notes,
      errors,
    }));
    io.stdout(`${toJSON(results)}\n`);
  } else {
    const docs = readings.flatMap(({ manifest, view, notes }) => {
      if (view === undefined) return [];
      const head = `# ${manifest.file}:${manifest.line}: ${describeManifest(manifest)}\n`;
      return [`${head}${toYAMLStream([view])}${notes.map((note) => `# note: ${note}\n`).join("")}`];
    });
    if (docs.length > 0) io.stdout(docs.join("---\n"));
    for (const { manifest, errors } of readings) {
      for (const error of errors) io.stderr(`${formatFinding(manifest, error)}\n`);
    }
  }
  return readings.some((r) => r.errors.length > 0) ? 1 : 0;
}

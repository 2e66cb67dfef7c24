import { outputFormat, parseCommandArgs, stringOption } from "./args.js";
import { checkManifest } from "./check-manifest.js";
import { usageError } from "./cli-error.js";
import { COMMAND_HELP } from "./help.js";
import type { CliIO } from "./io.js";
import { toJSON } from "./json.js";
import { loadManifests } from "./load-manifests.js";
import { findOld } from "./match-old.js";
import { formatTextReport, toJSONResults } from "./validate-report.js";
import { toYAMLStream } from "./yaml-output.js";

const OPTIONS = {
  old: { type: "string" },
  output: { type: "string", short: "o" },
  defaults: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Runs `cocoon-common validate [--old FILE] [--output text|json] [--defaults] FILE... | -` and
 * resolves to the exit status: 0 when every checked object is valid, 1 when one is not.
 *
 * @throws `CliError` for bad arguments or unreadable input (exit status 2).
 */
export async function validateCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (parsed.values.help === true) {
    io.stdout(COMMAND_HELP.validate);
    return 0;
  }
  const format = outputFormat(parsed);
  const files = parsed.positionals;
  const oldFile = stringOption(parsed, "old");
  if (files.length === 0) throw usageError("validate needs at least one FILE, or - for stdin");
  if ([...files, oldFile].filter((f) => f === "-").length > 1) throw usageError("standard input (-) can be read only once");

  const loaded = await loadManifests(io, oldFile === undefined ? files : [...files, oldFile]);
  const olds = oldFile === undefined ? undefined : loaded.pop();
  const manifests = loaded.flat();
  const results = manifests.map((m) => checkManifest(m, olds === undefined ? undefined : findOld(m, olds)));
  const withObjects = parsed.values.defaults === true;

  if (format === "json") {
    io.stdout(`${toJSON(toJSONResults(results, withObjects))}\n`);
  } else if (withObjects) {
    const objects = results.flatMap((r) => (r.object === undefined ? [] : [r.object]));
    if (objects.length > 0) io.stdout(toYAMLStream(objects));
    io.stderr(formatTextReport(results));
  } else {
    io.stdout(formatTextReport(results));
  }
  return results.some((r) => !r.valid) ? 1 : 0;
}

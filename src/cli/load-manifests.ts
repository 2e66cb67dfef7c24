import { CliError } from "./cli-error.js";
import { type CliIO, readSource } from "./io.js";
import { type Manifest, parseManifests } from "./yaml-stream.js";

/**
 * Reads and parses every file (`-` is stdin), in order, and returns the objects of each file.
 * All files are tried, so one run names every unreadable file.
 *
 * @throws `CliError` `ERR_CLI_INPUT` listing each unreadable or unparsable file on its own line.
 */
export async function loadManifests(io: CliIO, files: readonly string[]): Promise<Manifest[][]> {
  const perFile: Manifest[][] = [];
  const failures: CliError[] = [];
  for (const file of files) {
    try {
      perFile.push(parseManifests(await readSource(io, file)));
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      failures.push(err);
    }
  }
  if (failures.length > 0) {
    const [first] = failures;
    throw failures.length === 1 && first !== undefined
      ? first
      : new CliError("ERR_CLI_INPUT", failures.map((f) => f.message).join("\n"), { cause: new AggregateError(failures) });
  }
  return perFile;
}

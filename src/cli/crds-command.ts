import { parseCommandArgs } from "./args.js";
import { usageError } from "./cli-error.js";
import { COMMAND_HELP } from "./help.js";
import type { CliIO } from "./io.js";
import { crdManifests } from "./package-info.js";

/**
 * Runs `cocoon-common crds`: prints the shipped CRD manifests (`crds/*.yaml`, CocoonSet first) as
 * one YAML stream, byte for byte, ready for `kubectl apply -f -`. Resolves to exit status 0.
 *
 * @param packageRoot - Where `crds/` is; found from this file by default.
 * @throws `CliError` for an operand (the command takes none) or a missing manifest (exit status 2).
 */
export async function crdsCommand(args: readonly string[], io: CliIO, packageRoot?: string): Promise<number> {
  const parsed = parseCommandArgs(args, { help: { type: "boolean", short: "h" } });
  if (parsed.values.help === true) {
    io.stdout(COMMAND_HELP.crds);
    return 0;
  }
  if (parsed.positionals.length > 0) throw usageError(`crds takes no arguments, got '${parsed.positionals[0]}'`);
  io.stdout(crdManifests(packageRoot).join(""));
  return 0;
}

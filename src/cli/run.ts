import { CliError, parseCommandArgs, printErrors, usageError } from "./args.js";
import { COMMAND_HELP, COMMANDS, type CommandName, GLOBAL_HELP, PROGRAM, isCommandName } from "./help.js";
import type { CliIO } from "./io.js";
import { crdsCommand, packageVersion } from "./package-files.js";

// Loaded on demand, so `--help`, `--version` and `crds` never pay for zod and the schemas.
// `-v` is left to mean verbosity, as in kubectl: the version is `--version` only.
const HANDLERS: Readonly<Record<CommandName, (args: readonly string[], io: CliIO) => Promise<number>>> = {
  crds: crdsCommand,
  validate: async (args, io) => (await import("./validate-command.js")).validateCommand(args, io),
  annotations: async (args, io) => (await import("./annotations-command.js")).annotationsCommand(args, io),
};

function globalOptions(args: readonly string[], io: CliIO): number {
  const parsed = parseCommandArgs(args, { help: { type: "boolean", short: "h" }, version: { type: "boolean" } });
  const [topic] = parsed.positionals;
  if (topic !== undefined) {
    if (parsed.values.help === true && isCommandName(topic)) return help([topic], io);
    throw usageError(`put '${topic}' first: options come after the command`);
  }
  if (parsed.values.version === true) io.stdout(`${packageVersion()}\n`);
  else io.stdout(GLOBAL_HELP);
  return 0;
}

function help(args: readonly string[], io: CliIO): number {
  const [topic, extra] = args;
  if (topic === undefined) io.stdout(GLOBAL_HELP);
  else if (isCommandName(topic) && extra === undefined) io.stdout(COMMAND_HELP[topic]);
  else throw usageError(extra === undefined ? `unknown command '${topic}'` : `help takes one command, got '${extra}'`);
  return 0;
}

/** The usage line of a command (or of the program) and where to read more, printed after a usage error. */
function shortUsage(command: CommandName | undefined): string {
  const help = command === undefined ? GLOBAL_HELP : COMMAND_HELP[command];
  const usage = help.slice(0, help.indexOf("\n"));
  const commands = command === undefined ? `Commands: ${[...COMMANDS, "help"].join(", ")}\n` : "";
  return `${usage}\n${commands}Run '${command === undefined ? PROGRAM : `${PROGRAM} ${command}`} --help' for more.\n`;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit status:
 * 0 success, 1 invalid input (the command's verdict), 2 bad usage or unreadable input. Bad
 * usage prints the message, the usage line and a pointer to `--help` on stderr; unreadable input
 * prints the message; no arguments at all print the global help on stderr.
 *
 * @example
 * ```ts
 * process.exitCode = await run(process.argv.slice(2), processIO);
 * ```
 */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  const command = first !== undefined && isCommandName(first) ? first : undefined;
  try {
    if (first === undefined) {
      io.stderr(GLOBAL_HELP);
      return 2;
    }
    if (first === "help") return help(rest, io);
    if (command !== undefined) return await HANDLERS[command](rest, io);
    if (first.startsWith("-")) return globalOptions(argv, io);
    throw usageError(`unknown command '${first}'`);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    printErrors(io, command, [err]);
    if (err.code === "ERR_CLI_USAGE") io.stderr(shortUsage(command));
    return 2;
  }
}

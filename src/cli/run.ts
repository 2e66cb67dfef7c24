import {
  CliError,
  COMMANDS,
  type CommandName,
  type OptionSpecs,
  type ParsedArgs,
  PROGRAM,
  isCommandName,
  parseCommandArgs,
  printErrors,
  usageError,
} from "./args.js";
import type { CliIO } from "./io.js";
import { crdsCommand, packageVersion, rbacCommand } from "./package-files.js";

/** The global help: `cocoon-common --help`. */
export const GLOBAL_HELP = `Usage: ${PROGRAM} <command> [options]

The cocoonstack contract from the shell: install the CRDs and the ClusterRoles,
check manifests offline the way the API server will, and read a pod's cocoon
annotations.

Commands:
  crds                     Print both CRD manifests (pipe to 'kubectl apply -f -')
  rbac                     Print the operator's and the virtual kubelet's ClusterRoles
  validate FILE... | -     Check CocoonSet and CocoonHibernation manifests
  annotations FILE... | -  Show a pod's cocoon annotations as the Go readers see them
  help [COMMAND]           Show the help of a command

Options:
  -h, --help     Show this help
      --version  Print the version

Run '${PROGRAM} <command> --help' for the options of a command.
`;

/** The help of each command. */
export const COMMAND_HELP: Readonly<Record<CommandName, string>> = {
  crds: `Usage: ${PROGRAM} crds

Prints the CocoonSet and CocoonHibernation CustomResourceDefinitions as one
multi-document YAML stream, byte for byte the manifests shipped in crds/.

  ${PROGRAM} crds | kubectl apply -f -

Options:
  -h, --help  Show this help
`,
  rbac: `Usage: ${PROGRAM} rbac

Prints the least-privilege ClusterRoles of the operator (cocoon-operator) and
of the virtual kubelet (cocoon-kubelet) as one multi-document YAML stream,
byte for byte the manifests shipped in rbac/. Bind each to its own service
account.

  ${PROGRAM} rbac | kubectl apply -f -
  kubectl create clusterrolebinding cocoon-operator \\
    --clusterrole=cocoon-operator --serviceaccount=cocoon-system:cocoon-operator

Options:
  -h, --help  Show this help
`,
  validate: `Usage: ${PROGRAM} validate [options] FILE... | -

Checks CocoonSet and CocoonHibernation manifests (YAML or JSON, several
documents per file, '-' for stdin) the way the API server will, without a
cluster: schema, defaults, enums, bounds, patterns, the CEL rules, and unknown
fields (rejected, as kubectl's default strict field validation does). YAML is
read as kubectl reads it (YAML 1.1: unquoted yes/no/on/off are booleans).
Lists (kubectl get -o yaml) are checked item by item; other kinds are skipped.
A directory stands for its .yaml, .yml and .json files, recursively. Each input
is read up to 32 MiB.

Each finding is one line: FILE:LINE: document N (KIND NAMESPACE/NAME): PATH: MESSAGE

Options:
      --old FILE       Check the documents as updates of the objects in FILE
                       (matched by kind, namespace and name): the transition
                       rules apply, such as an immutable snapshotCompatibilityClass
  -o, --output FORMAT  text (default) or json: an array of results
                       {file, document, line, kind, namespace, name, valid,
                       skipped, errors: [{path, line, message}]}
      --validate=MODE  Unknown fields and duplicate keys, as kubectl: strict
                       (default, or true) rejects them, warn reports them as
                       warnings, ignore (or false) drops them silently
      --defaults       Print each valid object as the API server would store it
                       (defaults applied, unknown fields dropped): a YAML stream on
                       stdout, the report on stderr; with --output json, an
                       "object" field in each result
  -h, --help           Show this help

Exit status: 0 all valid, 1 something invalid, 2 bad usage or unreadable input
(the readable files are still reported).
`,
  annotations: `Usage: ${PROGRAM} annotations [options] FILE... | -

Shows the cocoon annotations of each pod in the files (YAML or JSON, a
directory for its .yaml, .yml and .json files, '-' for stdin) as the Go readers
see them: VM spec, VM runtime, lifecycle status, hibernate,
restore-from-hibernate, keep-snapshot-on-delete and the CocoonSet generation;
on a CocoonSet, the wake hint (hibernated-on-node). Other kinds are skipped,
saying so. Values the readers turn into zero values, and cocoon-looking keys
that are not part of the contract, are pointed out as notes.

Options:
  -o, --output FORMAT  text (default, YAML) or json
  -h, --help           Show this help

Exit status: 0 shown, 1 an object Kubernetes would reject (an annotation that
is not a string), 2 bad usage or unreadable input (the readable files are
still shown).
`,
};

const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** A command's options (besides `--help`, which every command takes) and what runs it once they are parsed. */
interface CommandSpec {
  readonly options: OptionSpecs;
  readonly handler: (parsed: ParsedArgs, io: CliIO) => Promise<number>;
}

// Handlers are loaded on demand, so `--help`, `--version`, `crds` and `rbac` never pay for zod and the schemas.
const COMMAND_SPECS: Readonly<Record<CommandName, CommandSpec>> = {
  crds: { options: {}, handler: crdsCommand },
  rbac: { options: {}, handler: rbacCommand },
  validate: {
    options: {
      old: { type: "string" },
      output: { type: "string", short: "o" },
      defaults: { type: "boolean" },
      validate: { type: "string", bare: "strict" },
    },
    handler: async (parsed, io) => (await import("./validate.js")).validateCommand(parsed, io),
  },
  annotations: {
    options: { output: { type: "string", short: "o" } },
    handler: async (parsed, io) => (await import("./annotations.js")).annotationsCommand(parsed, io),
  },
};

/** Parses a command's arguments, prints its help when asked, and otherwise runs it. */
async function runCommand(command: CommandName, args: readonly string[], io: CliIO): Promise<number> {
  const { options, handler } = COMMAND_SPECS[command];
  const parsed = parseCommandArgs(args, { ...options, ...HELP_OPTION });
  if (parsed.values.help === true) {
    io.stdout(COMMAND_HELP[command]);
    return 0;
  }
  return handler(parsed, io);
}

function globalOptions(args: readonly string[], io: CliIO): number {
  // `-v` is left to mean verbosity, as in kubectl: the version is `--version` only.
  const parsed = parseCommandArgs(args, { ...HELP_OPTION, version: { type: "boolean" } });
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
    if (command !== undefined) return await runCommand(command, rest, io);
    if (first.startsWith("-")) return globalOptions(argv, io);
    throw usageError(`unknown command '${first}'`);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    printErrors(io, command, [err]);
    if (err.code === "ERR_CLI_USAGE") io.stderr(shortUsage(command));
    return 2;
  }
}

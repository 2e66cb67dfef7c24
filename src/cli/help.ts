/** The name users type; every message and usage line starts with it. */
export const PROGRAM = "cocoon-common";

/** The commands, in the order the global help lists them. */
export const COMMANDS = ["crds", "validate", "annotations"] as const;
/** One of the {@link COMMANDS}. */
export type CommandName = (typeof COMMANDS)[number];

/** Reports whether `name` is a command. */
export function isCommandName(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}

/** The global help: `cocoon-common --help`. */
export const GLOBAL_HELP = `Usage: ${PROGRAM} <command> [options]

The cocoonstack contract from the shell: install the CRDs, check manifests
offline the way the API server will, and read a pod's cocoon annotations.

Commands:
  crds                     Print both CRD manifests (pipe to 'kubectl apply -f -')
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

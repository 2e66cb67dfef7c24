import { parseArgs } from "node:util";

/** The name users type; every message and usage line starts with it. */
export const PROGRAM = "cocoon-common";

/** The commands, in the order the global help lists them. */
export const COMMANDS = ["crds", "rbac", "validate", "annotations"] as const;
/** One of the {@link COMMANDS}. */
export type CommandName = (typeof COMMANDS)[number];

/** Reports whether `name` is a command. */
export function isCommandName(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}

/**
 * Why a command could not run: `usage` (bad arguments; the command's usage follows the message)
 * or `input` (a file that cannot be read or parsed). Both exit with status 2.
 */
export type CliErrorCode = "ERR_CLI_USAGE" | "ERR_CLI_INPUT";

/** A failure that ends a command with exit status 2 and its message on stderr; never leaves `src/cli`. */
export class CliError extends Error {
  override name = "CliError";
  /** What went wrong: bad arguments or unreadable input. */
  readonly code: CliErrorCode;

  /**
   * @param code - `ERR_CLI_USAGE` or `ERR_CLI_INPUT`.
   * @param message - One line naming the argument or file at fault.
   * @param options - Standard error options; `cause` keeps the underlying error.
   */
  constructor(code: CliErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** Creates the {@link CliError} for bad arguments. */
export function usageError(message: string): CliError {
  return new CliError("ERR_CLI_USAGE", message);
}

/** Writes `errors` on stderr, one line each, as `cocoon-common COMMAND: MESSAGE`. */
export function printErrors(
  io: { readonly stderr: (text: string) => void },
  command: CommandName | undefined,
  errors: readonly Error[],
): void {
  const prefix = command === undefined ? PROGRAM : `${PROGRAM} ${command}`;
  for (const err of errors)
    io.stderr(
      err.message
        .split("\n")
        .map((line) => `${prefix}: ${line}\n`)
        .join(""),
    );
}

/** How one option is spelled and whether it takes a value. */
export interface OptionSpec {
  /** `string` options take a value (`--output json`, `--output=json`, `-o json`, `-o=json`); `boolean` ones do not. */
  readonly type: "string" | "boolean";
  /** One-letter alias, without the dash. */
  readonly short?: string;
  /** The value of a string option given bare (`--validate`); it then takes a value only after `=`, as pflag's `NoOptDefVal`. */
  readonly bare?: string;
}

/** The options a command accepts, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Parsed arguments: the last value of each option given (`true` for flags) and the positionals in order. */
export interface ParsedArgs {
  /** Option values by long name; absent options are missing. */
  readonly values: Readonly<Partial<Record<string, string | true>>>;
  /** Operands, including a lone `-` and everything after `--`. */
  readonly positionals: readonly string[];
}

/**
 * Parses `args` against `specs` with `node:util` `parseArgs`, and reports mistakes in its own
 * words (stable across Node versions): an unknown option, a missing value, a value given to a flag.
 * A string option's value may be `-` (stdin) but no other word starting with a dash.
 *
 * @throws `CliError` `ERR_CLI_USAGE` on the first mistake.
 * @example
 * ```ts
 * parseCommandArgs(["-o=json", "a.yaml"], { output: { type: "string", short: "o" } });
 * // => { values: { output: "json" }, positionals: ["a.yaml"] }
 * ```
 */
export function parseCommandArgs(args: readonly string[], specs: OptionSpecs): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { ...spec, type: spec.bare === undefined ? spec.type : "boolean" }]),
  );
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const spec = Object.hasOwn(specs, token.name) ? specs[token.name] : undefined;
    const short = token.rawName.length === 2;
    if (spec === undefined || (short && spec.short !== token.rawName.slice(1))) throw usageError(`unknown option '${token.rawName}'`);
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw usageError(`option '${token.rawName}' does not take a value`);
      values[token.name] = true;
    } else if (spec.bare !== undefined) {
      values[token.name] = token.value ?? spec.bare;
    } else {
      const { value } = token;
      if (value === undefined || (!token.inlineValue && value.startsWith("-") && value !== "-"))
        throw usageError(`option '${token.rawName}' needs a value`);
      // pflag reads `-o=json` as `-o json`; node's parseArgs would keep the `=`.
      values[token.name] = short && token.inlineValue && value.startsWith("=") ? value.slice(1) : value;
    }
  }
  return { values, positionals };
}

/** Returns the value of string option `name`, or `undefined` when it was not given. */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/** The two report formats every reporting command offers with `--output`. */
export type OutputFormat = "text" | "json";

/**
 * Reads `--output`: `text` (the default) or `json`.
 *
 * @throws `CliError` `ERR_CLI_USAGE` for any other value.
 */
export function outputFormat(parsed: ParsedArgs): OutputFormat {
  const value = stringOption(parsed, "output") ?? "text";
  if (value !== "text" && value !== "json") throw usageError(`--output must be 'text' or 'json', got '${value}'`);
  return value;
}

/** kubectl's `--validate`: unknown fields and duplicate keys are errors, warnings, or dropped silently. */
export type FieldValidation = "strict" | "warn" | "ignore";

const FIELD_VALIDATION: Readonly<Record<string, FieldValidation>> = {
  strict: "strict",
  true: "strict",
  warn: "warn",
  ignore: "ignore",
  false: "ignore",
};

/**
 * Reads `--validate` as kubectl does: `strict` (or `true`, the default), `warn`, `ignore` (or `false`).
 *
 * @throws `CliError` `ERR_CLI_USAGE` for any other value.
 */
export function fieldValidation(parsed: ParsedArgs): FieldValidation {
  const value = stringOption(parsed, "validate") ?? "strict";
  const mode = Object.hasOwn(FIELD_VALIDATION, value) ? FIELD_VALIDATION[value] : undefined;
  if (mode === undefined) throw usageError(`--validate must be 'strict', 'warn' or 'ignore' (or 'true', 'false'), got '${value}'`);
  return mode;
}

/**
 * Checks the operands of a command that reads manifests: at least one FILE, and `-` (stdin) at
 * most once among them and the values of the options named in `alsoRead`.
 *
 * @throws `CliError` `ERR_CLI_USAGE` otherwise.
 */
export function checkFileOperands(command: CommandName, parsed: ParsedArgs, alsoRead: readonly string[] = []): void {
  if (parsed.positionals.length === 0) throw usageError(`${command} needs at least one FILE or directory, or - for stdin`);
  const stdinReads = [...parsed.positionals, ...alsoRead.map((name) => parsed.values[name])].filter((f) => f === "-");
  if (stdinReads.length > 1) throw usageError("standard input (-) can be read only once");
}

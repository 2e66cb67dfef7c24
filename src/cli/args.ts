import { parseArgs } from "node:util";
import { usageError } from "./cli-error.js";

/** How one option is spelled and whether it takes a value. */
export interface OptionSpec {
  /** `string` options take a value (`--output json`, `--output=json`, `-o json`); `boolean` ones do not. */
  readonly type: "string" | "boolean";
  /** One-letter alias, without the dash. */
  readonly short?: string;
}

/** The options a command accepts, by long name. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Parsed arguments: the last value of each option given (`true` for flags) and the positionals in order. */
export interface ParsedArgs {
  /** Option values by long name; absent options are missing. */
  readonly values: Readonly<Record<string, string | true>>;
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
 * parseCommandArgs(["-o", "json", "a.yaml"], { output: { type: "string", short: "o" } });
 * // => { values: { output: "json" }, positionals: ["a.yaml"] }
 * ```
 */
export function parseCommandArgs(args: readonly string[], specs: OptionSpecs): ParsedArgs {
  const { tokens } = parseArgs({ args: [...args], options: specs, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const spec = specs[token.name];
    if (spec === undefined || (token.rawName.length === 2 && spec.short !== token.rawName.slice(1))) {
      throw usageError(`unknown option '${token.rawName}'`);
    }
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw usageError(`option '${token.rawName}' does not take a value`);
      values[token.name] = true;
    } else {
      const value = token.value;
      if (value === undefined || (!token.inlineValue && value.startsWith("-") && value !== "-")) {
        throw usageError(`option '${token.rawName}' needs a value`);
      }
      values[token.name] = value;
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

import { describe, expect, it } from "vitest";
import { outputFormat, parseCommandArgs } from "./args.js";

const SPECS = {
  output: { type: "string", short: "o" },
  old: { type: "string" },
  defaults: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

describe("parseCommandArgs", () => {
  it.each([
    { name: "positionals and a short option", args: ["-o", "json", "a.yaml"], values: { output: "json" }, positionals: ["a.yaml"] },
    { name: "inline values", args: ["--output=json", "-ojson"], values: { output: "json" }, positionals: [] },
    { name: "the last value wins", args: ["-o", "json", "--output", "text"], values: { output: "text" }, positionals: [] },
    { name: "a lone dash is stdin", args: ["--old", "-", "-"], values: { old: "-" }, positionals: ["-"] },
    { name: "flags", args: ["--defaults", "-h"], values: { defaults: true, help: true }, positionals: [] },
    { name: "everything after -- is an operand", args: ["--", "--old", "-h"], values: {}, positionals: ["--old", "-h"] },
  ])("$name", ({ args, values, positionals }) => {
    expect(parseCommandArgs(args, SPECS)).toEqual({ values, positionals });
  });

  it.each([
    { name: "unknown long option", args: ["--frob"], message: "unknown option '--frob'" },
    { name: "unknown short option", args: ["-x"], message: "unknown option '-x'" },
    { name: "missing value at the end", args: ["a.yaml", "--old"], message: "option '--old' needs a value" },
    { name: "an option where the value should be", args: ["-o", "--defaults"], message: "option '-o' needs a value" },
    { name: "a value given to a flag", args: ["--defaults=yes"], message: "option '--defaults' does not take a value" },
  ])("rejects $name with ERR_CLI_USAGE", ({ args, message }) => {
    expect(() => parseCommandArgs(args, SPECS)).toThrow(expect.objectContaining({ code: "ERR_CLI_USAGE", message }));
  });
});

describe("outputFormat", () => {
  it.each([
    { args: [], want: "text" },
    { args: ["-o", "text"], want: "text" },
    { args: ["--output", "json"], want: "json" },
  ])("$args gives $want", ({ args, want }) => {
    expect(outputFormat(parseCommandArgs(args, SPECS))).toBe(want);
  });

  it("rejects another format", () => {
    expect(() => outputFormat(parseCommandArgs(["-o", "yaml"], SPECS))).toThrow(
      expect.objectContaining({ code: "ERR_CLI_USAGE", message: "--output must be 'text' or 'json', got 'yaml'" }),
    );
  });
});

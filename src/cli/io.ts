import { readFile } from "node:fs/promises";
import { CliError } from "./cli-error.js";

/** What a command needs from the outside world; tests pass fakes. */
export interface CliIO {
  /** Writes to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** Reads all of standard input as UTF-8. */
  readonly readStdin: () => Promise<string>;
  /** Reads a file as UTF-8; rejects with the `fs` error. */
  readonly readFile: (path: string) => Promise<string>;
}

/** The name a source is reported under: the path as given, or `<stdin>` for `-`. */
export const STDIN_NAME = "<stdin>";

/** A named input text. */
export interface Source {
  /** The path as given on the command line, or {@link STDIN_NAME}. */
  readonly name: string;
  /** The whole text. */
  readonly text: string;
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  ENOTDIR: "not a directory",
};

/**
 * Reads `path` (or standard input for `-`).
 *
 * @throws `CliError` `ERR_CLI_INPUT` naming the file and the reason, e.g. `cannot read a.yaml: no such file or directory`.
 */
export async function readSource(io: CliIO, path: string): Promise<Source> {
  try {
    if (path === "-") return { name: STDIN_NAME, text: await io.readStdin() };
    return { name: path, text: await io.readFile(path) };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const reason = (typeof code === "string" ? FS_REASONS[code] : undefined) ?? (err as Error).message;
    throw new CliError("ERR_CLI_INPUT", `cannot read ${path === "-" ? STDIN_NAME : path}: ${reason}`, { cause: err });
  }
}

/** Reads all of `stream` as UTF-8 text. */
export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The real process: `process.stdout`, `process.stderr`, `process.stdin` and the file system. */
export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  readStdin: () => readAll(process.stdin),
  readFile: (path) => readFile(path, "utf8"),
};

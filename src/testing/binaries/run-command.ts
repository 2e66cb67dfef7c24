import { spawn } from "node:child_process";
import { CocoonError } from "../../errors.js";

/** What {@link runCommand} returns once the command exits with status 0. */
export interface CommandResult {
  /** Everything the command wrote to stdout. */
  stdout: string;
  /** The last lines it wrote to stderr (bounded). */
  stderrTail: string;
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** Working directory. */
  cwd?: string;
  /** Environment; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Called with every complete stderr line, e.g. to show build progress. */
  onStderrLine?: (line: string) => void;
  /** Aborts the command (SIGTERM). */
  signal?: AbortSignal;
}

const STDERR_TAIL_LINES = 40;

/**
 * Runs `command args...`, resolving with its output or rejecting with `ERR_CONTROL_PLANE`.
 *
 * A missing executable is reported as `"<command>" is not on PATH`; a failing one with its
 * exit status and the tail of its stderr.
 */
export function runCommand(command: string, args: readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      signal: options.signal,
    });
    const stdout: Buffer[] = [];
    const tail: string[] = [];
    let partial = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        tail.push(line);
        if (tail.length > STDERR_TAIL_LINES) tail.shift();
        options.onStderrLine?.(line);
      }
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      const what = err.code === "ENOENT" ? `"${command}" is not on PATH` : `cannot run "${command}": ${err.message}`;
      reject(new CocoonError("ERR_CONTROL_PLANE", what, { cause: err }));
    });
    child.on("close", (code, signal) => {
      if (partial) tail.push(partial);
      const stderrTail = tail.join("\n");
      if (code === 0) {
        resolve({ stdout: Buffer.concat(stdout).toString("utf8"), stderrTail });
        return;
      }
      const status = signal ? `signal ${signal}` : `exit status ${code}`;
      const message = `"${command} ${args.join(" ")}" failed with ${status}:\n${stderrTail}`;
      reject(new CocoonError("ERR_CONTROL_PLANE", message));
    });
  });
}

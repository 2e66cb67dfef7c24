import { spawn } from "node:child_process";
import { access, constants, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { CocoonError, type CocoonErrorCode } from "../../errors.js";

/** Receives one progress line; {@link ensureControlPlaneBinaries} writes them to stderr by default. */
export type ProgressLog = (line: string) => void;

/** Formats a duration as `1m05s` or `12.3s`. @internal */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** What {@link runCommand} returns once the command exits with status 0. @internal */
export interface CommandResult {
  /** Everything the command wrote to stdout. */
  stdout: string;
  /** The last lines it wrote to stderr (bounded). */
  stderrTail: string;
}

/** Options of {@link runCommand}. @internal */
export interface RunCommandOptions {
  /** Working directory. */
  cwd?: string;
  /** Environment; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Called with every complete stderr line, e.g. to show build progress. */
  onStderrLine?: (line: string) => void;
  /** Aborts the command (SIGTERM). */
  signal?: AbortSignal | undefined;
  /** Code of the error when it fails; default `ERR_CONTROL_PLANE`. */
  code?: CocoonErrorCode;
}

const STDERR_TAIL_LINES = 40;

/**
 * Runs `command args...`, resolving with its output or rejecting with a {@link CocoonError}.
 *
 * A missing executable is reported as `"<command>" is not on PATH`; a failing one with its
 * exit status and the tail of its stderr.
 *
 * @internal
 */
export function runCommand(command: string, args: readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  const code = options.code ?? "ERR_CONTROL_PLANE";
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
      reject(new CocoonError(code, what, { cause: err }));
    });
    child.on("close", (exit, signal) => {
      if (partial) tail.push(partial);
      const stderrTail = tail.join("\n");
      if (exit === 0) {
        resolve({ stdout: Buffer.concat(stdout).toString("utf8"), stderrTail });
        return;
      }
      const status = signal ? `signal ${signal}` : `exit status ${exit}`;
      reject(new CocoonError(code, `"${command} ${args.join(" ")}" failed with ${status}:\n${stderrTail}`));
    });
  });
}

/** Reports whether `path` is a file this process may execute. @internal */
export async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Returns the first executable `name` on `env.PATH` (as a shell would run it), or `undefined`.
 *
 * Lets a caller learn that `go` is missing before it takes a lock or promises a build.
 *
 * @internal
 */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const suffixes = process.platform === "win32" ? ["", ".exe"] : [""];
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if ((await stat(candidate).catch(() => undefined))?.isFile() && (await isExecutable(candidate))) return candidate;
    }
  }
  return undefined;
}

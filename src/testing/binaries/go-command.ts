import { trackGoProgress, type ProgressLog } from "./build-progress.js";
import { runCommand } from "./run-command.js";

/** Options of {@link goCommand}. */
export interface GoCommandOptions {
  /** Progress lines. */
  log: ProgressLog;
  /** Environment of the `go` commands (GOPROXY, GOFLAGS, GOCACHE... are honoured); default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Aborts the running `go` command. */
  signal?: AbortSignal | undefined;
}

/** Runs one `go` command; with a `label`, its `-v` output is summarised as progress lines. */
export type GoRunner = (args: string[], label?: string) => Promise<string>;

/**
 * Returns a runner of `go` commands in the module folder `srcDir` (with `GOWORK=off`), resolving to stdout.
 *
 * @internal
 */
export function goCommand(srcDir: string, options: GoCommandOptions): GoRunner {
  return (args, label) => {
    const progress = label === undefined ? undefined : trackGoProgress(label, options.log);
    const run = runCommand("go", args, {
      cwd: srcDir,
      env: { ...(options.env ?? process.env), GOWORK: "off" },
      ...(progress && { onStderrLine: (line: string) => progress.line(line) }),
      ...(options.signal && { signal: options.signal }),
    });
    return run.then(
      (result) => (progress?.done(), result.stdout),
      (err: unknown) => {
        progress?.done();
        throw err;
      },
    );
  };
}

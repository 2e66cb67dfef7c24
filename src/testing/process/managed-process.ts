import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** How a {@link ManagedProcess} ended. */
export interface ProcessExit {
  /** Exit status, or `null` when killed by a signal. */
  code: number | null;
  /** Signal that ended it, or `null`. */
  signal: NodeJS.Signals | null;
}

/** A child process whose output is kept in a bounded in-memory log. */
export interface ManagedProcess {
  /** Short name used in messages (`etcd`, `kube-apiserver`). */
  readonly name: string;
  /** Operating-system process id. */
  readonly pid: number;
  /** Settles when the process has exited (or failed to spawn). */
  readonly exited: Promise<ProcessExit>;
  /** The exit, once it happened. */
  exit(): ProcessExit | undefined;
  /** The last `lines` log lines (stdout and stderr interleaved). */
  logTail(lines?: number): string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs: number): Promise<void>;
  /** Sends SIGKILL without waiting (for exit handlers, which cannot wait). */
  killNow(): void;
}

const MAX_LINES = 2000;

/**
 * Spawns `command` with its output captured; the child does not keep the parent's event loop alive.
 * `env` defaults to the parent's environment.
 *
 * @internal
 */
export function startProcess(name: string, command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): ManagedProcess {
  const child: ChildProcess = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], ...(env && { env }) });
  const lines: string[] = [];
  let ended: ProcessExit | undefined;
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream?.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      lines.push(...parts);
      if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
    });
    (stream as { unref?: () => void } | null)?.unref?.();
  }
  child.unref();
  const exited = new Promise<ProcessExit>((resolve) => {
    child.on("error", (err) => {
      lines.push(`[${name}] ${err.message}`);
      ended ??= { code: -1, signal: null };
      resolve(ended);
    });
    child.on("exit", (code, signal) => {
      ended ??= { code, signal };
      resolve(ended);
    });
  });
  const pid = child.pid ?? -1;
  return {
    name,
    pid,
    exited,
    exit: () => ended,
    logTail: (count = 40) => lines.slice(-count),
    killNow() {
      if (ended === undefined) child.kill("SIGKILL");
    },
    async stop(graceMs) {
      if (ended !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      if (child.stdout && !child.stdout.closed) await once(child.stdout, "close").catch(() => undefined);
    },
  };
}

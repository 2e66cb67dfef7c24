/** Something to undo synchronously when the parent process exits or is interrupted. */
export type SyncCleanup = () => void;

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const pending = new Set<SyncCleanup>();

/**
 * Runs `cleanup` if the process exits, or gets SIGINT/SIGTERM/SIGHUP, before the returned function is called.
 *
 * Handlers are installed while at least one cleanup is pending and removed with the last one.
 * After cleaning up on a signal, the signal is raised again when nobody else handles it, so the
 * process still ends the way it would have.
 *
 * @internal
 */
export function onParentExit(cleanup: SyncCleanup): () => void {
  if (pending.size === 0) install();
  pending.add(cleanup);
  return () => {
    if (pending.delete(cleanup) && pending.size === 0) uninstall();
  };
}

function runAll(): void {
  for (const cleanup of [...pending]) {
    pending.delete(cleanup);
    try {
      cleanup();
    } catch {
      // best effort while exiting
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runAll();
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  process.on("exit", runAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  process.off("exit", runAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

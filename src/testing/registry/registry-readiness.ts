import { setTimeout as sleep } from "node:timers/promises";
import { CocoonError } from "../../errors.js";
import type { ManagedProcess } from "../process/managed-process.js";

/**
 * Waits until the registry answers `GET /v2/` (200, or 401 when it authenticates) and, for
 * htpasswd auth, returns the password the registry provisioned and logged for user `docker`.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` with the log tail when the process exits or the deadline passes.
 * @internal
 */
export async function waitRegistryReady(
  url: string,
  proc: ManagedProcess,
  auth: string,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<{ username: string; password: string } | undefined> {
  let last = "no answer yet";
  for (;;) {
    signal?.throwIfAborted();
    const exit = proc.exit();
    if (exit !== undefined) throw failure(`registry exited (${exit.signal ?? `exit status ${exit.code}`}) during start`, proc);
    if (Date.now() > deadline) throw failure(`registry not ready in time; last GET /v2/: ${last}`, proc);
    const status = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(2000) }).then(
      async (r) => (await r.body?.cancel(), r.status),
      (err: unknown) => ((last = (err as Error).message), 0),
    );
    if (status !== 0) last = String(status);
    const password = auth === "htpasswd" ? provisionedPassword(proc.logTail(2000)) : undefined;
    if ((status === 200 && auth === "none") || (status === 401 && (auth !== "htpasswd" || password !== undefined))) {
      return password === undefined ? undefined : { username: "docker", password };
    }
    await sleep(50, undefined, signal ? { signal } : {});
  }
}

/** Finds the `password` field of the JSON log line in which the registry provisioned its htpasswd file. */
function provisionedPassword(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    if (!line.includes('"password"')) continue;
    try {
      const entry = JSON.parse(line) as { password?: unknown; user?: unknown };
      if (typeof entry.password === "string" && entry.user === "docker") return entry.password;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

function failure(what: string, proc: ManagedProcess): CocoonError {
  return new CocoonError(
    "ERR_TEST_REGISTRY",
    `test registry failed to start: ${what}\nlast registry log lines:\n${proc.logTail(40).join("\n")}`,
  );
}

import { link, readFile, rm, stat, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { CocoonError } from "../../errors.js";

/** Options of {@link acquireBuildLock}. */
export interface BuildLockOptions {
  /** Called once when another process holds the lock, before waiting. */
  onWait?: (holderPid: number) => void;
  /** Give up after this long; default 45 minutes (a cold build takes about 6). */
  timeoutMs?: number;
  /** Poll interval; default 1 s. */
  pollMs?: number;
  /** Stops waiting. */
  signal?: AbortSignal;
}

/**
 * Takes an exclusive lock file so only one process builds the binaries at a time.
 *
 * The file holds the owner's pid; a lock whose owner is gone (killed mid-build) is taken over.
 *
 * @returns A function that releases the lock (idempotent).
 * @throws CocoonError `ERR_CONTROL_PLANE` when the lock stays taken past `timeoutMs`.
 */
export async function acquireBuildLock(path: string, options: BuildLockOptions = {}): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.timeoutMs ?? 45 * 60_000);
  let announced = false;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await createHolding(path, String(process.pid))) {
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(path, { force: true });
      };
    }
    const holder = await readHolder(path);
    if (holder === undefined ? await goneOrOlderThan(path, 10_000) : !isAlive(holder)) {
      await rm(path, { force: true });
      continue;
    }
    if (!announced && holder !== undefined) {
      options.onWait?.(holder);
      announced = true;
    }
    if (Date.now() > deadline) {
      throw new CocoonError("ERR_CONTROL_PLANE", `lock ${path} is still held by pid ${holder ?? "?"}; remove it if no build runs`);
    }
    await sleep(options.pollMs ?? 1000, undefined, { signal: options.signal });
  }
}

/**
 * Creates `path` holding `text`, or returns false when it exists. The file is written aside and
 * linked into place, so a waiter never reads a lock that is there but still empty.
 */
async function createHolding(path: string, text: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(aside, text, { flag: "wx" });
  try {
    await link(aside, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return false;
  } finally {
    await rm(aside, { force: true });
  }
}

async function readHolder(path: string): Promise<number | undefined> {
  const text = await readFile(path, "utf8").catch(() => "");
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** True when the lock was released meanwhile (take it now) or its holder never wrote its pid. */
async function goneOrOlderThan(path: string, ms: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined || Date.now() - info.mtimeMs > ms;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Where the binaries are kept, and how one process fills a cache folder while the others wait.
 */
import { homedir } from "node:os";
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CocoonError, type CocoonErrorCode } from "../../errors.js";
import { formatElapsed, type ProgressLog } from "./command.js";
import { DISTRIBUTION_VERSION, kubernetesVersionFrom } from "./versions.js";

/**
 * Returns the folder that holds `etcd` and `kube-apiserver` (and kube-scheduler and kube-controller-manager
 * when fetched) for the selected Kubernetes release ({@link kubernetesVersionFrom}: `COCOON_KUBERNETES_VERSION`,
 * else {@link KUBERNETES_VERSION}).
 *
 * The root is `$COCOON_CONTROLPLANE_CACHE` when set, else `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/controlplane`;
 * the version is always appended, so a new release never reuses old binaries.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when `COCOON_KUBERNETES_VERSION` names an unsupported release.
 *
 * @example
 * ```ts
 * controlPlaneCacheDir({ HOME: "/home/me" }); // "/home/me/.cache/cocoon-common/controlplane/v1.35.4"
 * ```
 */
export function controlPlaneCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(controlPlaneCacheRoot(env), kubernetesVersionFrom(env));
}

/** Returns the version-independent root of {@link controlPlaneCacheDir}. @internal */
export function controlPlaneCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.COCOON_CONTROLPLANE_CACHE || join(cacheHome(env), "cocoon-common", "controlplane");
}

/**
 * Returns the folder that holds the distribution `registry` for {@link DISTRIBUTION_VERSION}.
 *
 * The root is `$COCOON_REGISTRY_CACHE` when set, else `${XDG_CACHE_HOME:-~/.cache}/cocoon-common/registry`;
 * the version is always appended.
 *
 * @example
 * ```ts
 * registryCacheDir({ HOME: "/home/me" }); // "/home/me/.cache/cocoon-common/registry/v3.1.2"
 * ```
 */
export function registryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(registryCacheRoot(env), DISTRIBUTION_VERSION);
}

/** Returns the version-independent root of {@link registryCacheDir}. @internal */
export function registryCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.COCOON_REGISTRY_CACHE || join(cacheHome(env), "cocoon-common", "registry");
}

function cacheHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
}

/** What {@link ensureCached} fills, and how. @internal */
export interface CacheFill {
  /** The version-keyed cache folder that holds the finished binaries. */
  readonly dir: string;
  /** What is filled, for progress lines (`etcd and kube-apiserver v1.35.4`). */
  readonly what: string;
  /** Error code of a failure. */
  readonly code: CocoonErrorCode;
  /** Reports whether a folder holds binaries that run. */
  isUsable(dir: string): Promise<boolean>;
  /**
   * Throws when there is no way to fill the cache (no `go`, no download), before the lock is
   * taken and before anything is announced, so nobody waits on another process to learn that.
   */
  preflight(): Promise<void>;
  /** Fills the fresh folder `outDir` (its `src/` is removed afterwards), logging what it does; says how. */
  fill(outDir: string): Promise<"download" | "build">;
  /** Progress lines. */
  readonly log: ProgressLog;
  /** Aborts the wait for another process. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Returns `cache` when `spec.dir` is usable, else fills it once and returns how (`download` or `build`).
 *
 * `spec.preflight` runs first, outside the lock. One process fills the cache while the others wait on
 * a lock file; the files go to `<dir>.tmp-<pid>` and are moved into `dir` only when complete, so a
 * killed build or download never leaves a half-written binary. Files already in `dir` that the fill
 * did not make stay: kube-scheduler shares the folder (and so the lock) of etcd and kube-apiserver.
 *
 * @internal
 */
export async function ensureCached(spec: CacheFill): Promise<"cache" | "download" | "build"> {
  const { dir, log } = spec;
  if (await spec.isUsable(dir)) return "cache";
  await spec.preflight();
  await mkdir(dirname(dir), { recursive: true });
  const release = await acquireBuildLock(`${dir}.lock`, {
    onWait: (pid) => log(`waiting for process ${pid}, which is downloading or building ${spec.what}`),
    signal: spec.signal,
  });
  try {
    if (await spec.isUsable(dir)) return "cache";
    const started = Date.now();
    const prefix = `${basename(dir)}.tmp-`;
    for (const name of (await readdir(dirname(dir))).filter((n) => n.startsWith(prefix))) {
      await rm(join(dirname(dir), name), { recursive: true, force: true }); // left by a killed process
    }
    const tmp = `${dir}.tmp-${process.pid}`;
    let how: "download" | "build";
    try {
      how = await spec.fill(tmp);
      await rm(join(tmp, "src"), { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      for (const name of await readdir(tmp)) await rename(join(tmp, name), join(dir, name));
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    if (!(await spec.isUsable(dir)))
      throw new CocoonError(spec.code, `binaries ${how === "build" ? "built" : "downloaded"} into ${dir} do not run`);
    log(`${spec.what} ready in ${formatElapsed(Date.now() - started)}`);
    return how;
  } finally {
    await release();
  }
}

/** Options of {@link acquireBuildLock}. @internal */
export interface BuildLockOptions {
  /** Called once when another process holds the lock, before waiting. */
  onWait?: (holderPid: number) => void;
  /** Give up after this long; default 45 minutes (a cold build takes about 6). */
  timeoutMs?: number;
  /** Poll interval; default 1 s. */
  pollMs?: number;
  /** Stops waiting. */
  signal?: AbortSignal | undefined;
}

/**
 * Takes an exclusive lock file so only one process fills a cache folder at a time.
 *
 * The file holds the owner's pid; a lock whose owner is gone (killed mid-build) is taken over.
 *
 * @returns A function that releases the lock (idempotent).
 * @throws CocoonError `ERR_CONTROL_PLANE` when the lock stays taken past `timeoutMs`.
 * @internal
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

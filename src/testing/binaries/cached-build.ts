import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CocoonError, type CocoonErrorCode } from "../../errors.js";
import { acquireBuildLock } from "./build-lock.js";
import { formatElapsed, type ProgressLog } from "./build-progress.js";

/** What {@link ensureCachedBuild} builds, where, and how it tells a usable cache. */
export interface CachedBuildSpec {
  /** The version-keyed cache folder that holds the finished binaries. */
  readonly dir: string;
  /** What is built, for progress lines (`etcd and kube-apiserver v1.35.4`). */
  readonly what: string;
  /** Error code of a failure. */
  readonly code: CocoonErrorCode;
  /** Reports whether `dir` holds binaries that run. */
  isUsable(dir: string): Promise<boolean>;
  /**
   * Throws when there is no way to fill the cache (no `go`, no download), before the lock is
   * taken and before anything is announced, so nobody waits on another process to learn that.
   */
  preflight?(): Promise<void>;
  /** Fills the fresh folder `outDir` (its `src/` is removed afterwards), logging what it does; says how. */
  fill(outDir: string): Promise<"download" | "build">;
  /** Progress lines. */
  readonly log: ProgressLog;
  /** Aborts the wait for another builder. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Returns `cache` when `spec.dir` is usable, else fills it once and returns how (`download` or `build`).
 *
 * `spec.preflight` runs first, outside the lock. One process fills the cache while the others wait on
 * a lock file; the files go to `<dir>.tmp-<pid>` and are renamed into `dir` only when complete, so a
 * killed build or download never leaves a half-written binary. Files already in `dir` that the fill
 * did not make stay, so several specs may share one folder (and so one lock), each filling its own files.
 *
 * @internal
 */
export async function ensureCachedBuild(spec: CachedBuildSpec): Promise<"cache" | "download" | "build"> {
  const { dir, log } = spec;
  if (await spec.isUsable(dir)) return "cache";
  await spec.preflight?.();
  await mkdir(dirname(dir), { recursive: true });
  const release = await acquireBuildLock(`${dir}.lock`, {
    onWait: (pid) => log(`waiting for process ${pid}, which is downloading or building ${spec.what}`),
    ...(spec.signal && { signal: spec.signal }),
  });
  try {
    if (await spec.isUsable(dir)) return "cache";
    const started = Date.now();
    await removeInterruptedBuilds(dir);
    const tmp = `${dir}.tmp-${process.pid}`;
    let how: "download" | "build";
    try {
      how = await spec.fill(tmp);
      await rm(join(tmp, "src"), { recursive: true, force: true });
      await moveInto(tmp, dir);
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

/**
 * Moves each file of `from` into `dir` (made if missing), replacing files of the same name and
 * keeping the others: the scheduler added to a control-plane cache later survives a refill of
 * etcd and kube-apiserver, and they survive its.
 */
async function moveInto(from: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(from)) await rename(join(from, name), join(dir, name));
}

/** Removes `<dir>.tmp-*` folders that builds killed midway left behind (the caller holds the lock). */
async function removeInterruptedBuilds(dir: string): Promise<void> {
  const prefix = `${basename(dir)}.tmp-`;
  const siblings = await readdir(dirname(dir));
  for (const name of siblings.filter((n) => n.startsWith(prefix))) {
    await rm(join(dirname(dir), name), { recursive: true, force: true });
  }
}

import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import { controlPlaneCacheRoot } from "./cache-dir.js";
import { ensureCachedBuild } from "./cached-build.js";
import { buildWithGo } from "./control-plane-build.js";
import type { BinarySource, EnsureBinariesOptions } from "./control-plane-binaries.js";
import { downloadThenBuild } from "./download-then-build.js";
import { isExecutable } from "./executable.js";
import { kubernetesVersionFrom } from "./kubernetes-version.js";
import { runCommand } from "./run-command.js";
import { downloadSchedulerBinary } from "./scheduler-download.js";
import { schedulerDownloadBaseFrom, schedulerRelease } from "./scheduler-release.js";
import { KUBERNETES_VERSIONS } from "./versions.js";

/**
 * Where the `kube-scheduler` binary is and how {@link ensureSchedulerBinary} found it.
 *
 * @example
 * ```ts
 * const found: SchedulerBinary = await ensureSchedulerBinary();
 * await startControlPlane({ scheduler: true, binaries: { ...(await ensureControlPlaneBinaries()), kubeScheduler: found.kubeScheduler } });
 * ```
 */
export interface SchedulerBinary {
  /** Absolute path of `kube-scheduler`. */
  kubeScheduler: string;
  /** `env` (TEST_ASSET_KUBE_SCHEDULER or KUBEBUILDER_ASSETS), `cache` (there earlier), `download` or `build` (by this call). */
  source: BinarySource;
}

/**
 * Options of {@link ensureSchedulerBinary}.
 *
 * @example
 * ```ts
 * const options: EnsureSchedulerBinaryOptions = { kubernetesVersion: "v1.36.3", downloadUrl: false }; // Go build only
 * await ensureSchedulerBinary(options);
 * ```
 */
export interface EnsureSchedulerBinaryOptions extends EnsureBinariesOptions {
  /**
   * The Kubernetes release, one of {@link KUBERNETES_VERSIONS}: the API server's. Default
   * `$COCOON_KUBERNETES_VERSION` (a release or its minor), else {@link KUBERNETES_VERSION}.
   */
  kubernetesVersion?: string;
  /**
   * Base URL of the published release binaries (`dl.k8s.io`'s layout), or `false` to build with Go only.
   *
   * Default: `$COCOON_SCHEDULER_DOWNLOAD_URL` (`off` turns downloads off), else {@link SCHEDULER_DOWNLOAD_URL}.
   */
  downloadUrl?: string | false;
  /** Give up a download when no bytes arrive for this long; default 30 s. */
  downloadTimeoutMs?: number;
}

/**
 * Finds, downloads or builds `kube-scheduler` for `startControlPlane({ scheduler: true })`.
 *
 * Order: `TEST_ASSET_KUBE_SCHEDULER`, then `$KUBEBUILDER_ASSETS/kube-scheduler` when that folder has
 * one (envtest's archives do not), then the version-keyed control-plane cache (the folder of
 * {@link controlPlaneCacheDir}, beside etcd and kube-apiserver, which stay as they are), else the
 * published release binary checked against its `.sha256` (see `downloadUrl`), else a build with Go
 * of `k8s.io/kubernetes/cmd/kube-scheduler` in the control plane's wrapper module (a few minutes,
 * much less after kube-apiserver was built: they share Go's build cache). One process downloads or
 * builds while the others wait, on the same lock as {@link ensureControlPlaneBinaries}.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when `TEST_ASSET_KUBE_SCHEDULER` is not executable, the
 * release is not one of {@link KUBERNETES_VERSIONS}, or the download is off or fails and there is no
 * `go` to build with (then before waiting on any other process).
 * @example
 * ```ts
 * const { kubeScheduler, source } = await ensureSchedulerBinary({ kubernetesVersion: "v1.35.4" });
 * ```
 */
export async function ensureSchedulerBinary(options: EnsureSchedulerBinaryOptions = {}): Promise<SchedulerBinary> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[controlplane] ${line}\n`));
  const fromEnv = await schedulerFromEnv(env);
  if (fromEnv) return fromEnv;

  const version = options.kubernetesVersion ?? kubernetesVersionFrom(env);
  if (!(KUBERNETES_VERSIONS as readonly string[]).includes(version)) {
    throw new CocoonError(
      "ERR_CONTROL_PLANE",
      `kube-scheduler ${version} cannot be fetched here: use one of ${KUBERNETES_VERSIONS.join(", ")}, ` +
        "or point TEST_ASSET_KUBE_SCHEDULER at a kube-scheduler of the API server's release",
    );
  }
  const dir = options.cacheDir ?? join(controlPlaneCacheRoot(env), version);
  const isUsable = (d: string): Promise<boolean> => runsAsVersion(join(d, "kube-scheduler"), version);
  const downloadBase = options.downloadUrl === false ? undefined : (options.downloadUrl ?? schedulerDownloadBaseFrom(env));
  const release = downloadBase === undefined ? undefined : schedulerRelease(downloadBase, version);
  const what = `kube-scheduler ${version}`;
  const { signal } = options;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- downloadThenBuild returns closures, not methods that use this
  const { preflight, fill } = downloadThenBuild({
    dir,
    what,
    env,
    log,
    signal,
    isUsable,
    download: release && {
      run: (outDir) => downloadSchedulerBinary(release, outDir, { log, idleTimeoutMs: options.downloadTimeoutMs, signal }),
      unusable: () => new CocoonError("ERR_CONTROL_PLANE", `the binary from ${release.url} does not run as ${what}`),
    },
    buildNote: "the build takes a few minutes on 2 cores, less when kube-apiserver was built first (they share Go's build cache)",
    build: (outDir) => buildWithGo(outDir, { log, env, signal, version, commands: ["kube-scheduler"], goMissingHint: SCHEDULER_HINT }),
    noWay: {
      code: "ERR_CONTROL_PLANE",
      downloadBase,
      variable: "COCOON_SCHEDULER_DOWNLOAD_URL",
      publisher: "Kubernetes publishes no kube-scheduler",
      pronoun: "it",
      remedy: `point COCOON_SCHEDULER_DOWNLOAD_URL at a mirror of the Kubernetes release binaries, or point ${SCHEDULER_HINT}`,
    },
  });
  const source = await ensureCachedBuild({ dir, what, code: "ERR_CONTROL_PLANE", isUsable, preflight, fill, log, signal });
  return { kubeScheduler: join(dir, "kube-scheduler"), source };
}

const SCHEDULER_HINT = "TEST_ASSET_KUBE_SCHEDULER at an existing kube-scheduler of the API server's release";

async function schedulerFromEnv(env: NodeJS.ProcessEnv): Promise<SchedulerBinary | undefined> {
  if (env.TEST_ASSET_KUBE_SCHEDULER) {
    const path = resolve(env.TEST_ASSET_KUBE_SCHEDULER);
    if (!(await isExecutable(path)))
      throw new CocoonError("ERR_CONTROL_PLANE", `${path} (from TEST_ASSET_KUBE_SCHEDULER) is not an executable file`);
    return { kubeScheduler: path, source: "env" };
  }
  const inAssets = env.KUBEBUILDER_ASSETS ? resolve(env.KUBEBUILDER_ASSETS, "kube-scheduler") : undefined;
  return inAssets !== undefined && (await isExecutable(inAssets)) ? { kubeScheduler: inAssets, source: "env" } : undefined;
}

async function runsAsVersion(path: string, version: string): Promise<boolean> {
  if (!(await isExecutable(path))) return false;
  const result = await runCommand(path, ["--version"]).catch(() => undefined);
  return result?.stdout.trim() === `Kubernetes ${version}`;
}

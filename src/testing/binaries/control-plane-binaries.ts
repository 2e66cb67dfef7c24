import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import type { ProgressLog } from "./build-progress.js";
import { controlPlaneCacheDir } from "./cache-dir.js";
import { ensureCachedBuild } from "./cached-build.js";
import { controlPlaneFill } from "./control-plane-fill.js";
import { downloadBaseFrom } from "./envtest-archive.js";
import { isExecutable } from "./executable.js";
import { runCommand } from "./run-command.js";
import { kubernetesVersionFrom } from "./kubernetes-version.js";

/** Where {@link ensureControlPlaneBinaries} found the binaries. */
export type BinarySource = "env" | "cache" | "download" | "build";

/** Paths of the two control-plane binaries. */
export interface ControlPlaneBinaries {
  /** Absolute path of `etcd`. */
  etcd: string;
  /** Absolute path of `kube-apiserver`. */
  kubeApiserver: string;
  /** `env` (TEST_ASSET_* or KUBEBUILDER_ASSETS), `cache` (there earlier), `download` or `build` (by this call). */
  source: BinarySource;
}

/** Options of {@link ensureControlPlaneBinaries} and {@link ensureRegistryBinary}. */
export interface EnsureBinariesOptions {
  /** Environment to read; default `process.env` (also passed to `go`). */
  env?: NodeJS.ProcessEnv;
  /** Cache folder; default {@link controlPlaneCacheDir} or {@link registryCacheDir}. */
  cacheDir?: string;
  /** Progress lines; default: written to stderr with a `[controlplane]` or `[registry]` prefix. */
  log?: ProgressLog;
  /** Aborts a running build. */
  signal?: AbortSignal;
}

/** Options of {@link ensureControlPlaneBinaries}. */
export interface EnsureControlPlaneBinariesOptions extends EnsureBinariesOptions {
  /**
   * Base URL of the prebuilt envtest archives (setup-envtest's layout), or `false` to build with Go only.
   *
   * Default: `$COCOON_CONTROLPLANE_DOWNLOAD_URL` (`off` turns downloads off), else {@link ENVTEST_DOWNLOAD_URL}.
   */
  downloadUrl?: string | false;
  /** Give up a download when no bytes arrive for this long; default 30 s. */
  downloadTimeoutMs?: number;
  /**
   * The Kubernetes release, one of {@link KUBERNETES_VERSIONS}; default `$COCOON_KUBERNETES_VERSION`
   * (a release or its minor), else {@link KUBERNETES_VERSION}. Each has its own cache folder.
   */
  kubernetesVersion?: string;
}

/**
 * Finds, downloads or builds `etcd` and `kube-apiserver` for {@link startControlPlane}.
 *
 * Order: `TEST_ASSET_ETCD` / `TEST_ASSET_KUBE_APISERVER` (envtest's convention), then
 * `$KUBEBUILDER_ASSETS/{etcd,kube-apiserver}`, then the version-keyed cache, else the prebuilt
 * envtest archive `envtest-v1.35.4-<os>-<arch>.tar.gz` checked against its `.sha512` (see
 * `downloadUrl`), else a build with Go from the module proxy (several minutes the first time). One
 * process downloads or builds while the others wait. The release is `kubernetesVersion`
 * (`COCOON_KUBERNETES_VERSION`), by default {@link KUBERNETES_VERSION}.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` when a configured path is missing, or when the download is
 * off or fails and there is no `go` to build with (then before waiting on any other process).
 *
 * @example
 * ```ts
 * const { etcd, kubeApiserver, source } = await ensureControlPlaneBinaries();
 * ```
 */
export async function ensureControlPlaneBinaries(options: EnsureControlPlaneBinariesOptions = {}): Promise<ControlPlaneBinaries> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[controlplane] ${line}\n`));
  const fromEnv = await binariesFromEnv(env);
  if (fromEnv) return fromEnv;

  const version = options.kubernetesVersion ?? kubernetesVersionFrom(env);
  const dir = options.cacheDir ?? controlPlaneCacheDir({ ...env, COCOON_KUBERNETES_VERSION: version });
  const isUsable = (d: string): Promise<boolean> => isUsableCache(pathsIn(d), version);
  const downloadBase = options.downloadUrl === false ? undefined : (options.downloadUrl ?? downloadBaseFrom(env));
  // eslint-disable-next-line @typescript-eslint/unbound-method -- controlPlaneFill returns closures, not methods that use this
  const { preflight, fill } = controlPlaneFill({
    dir,
    version,
    downloadBase,
    downloadTimeoutMs: options.downloadTimeoutMs,
    env,
    log,
    signal: options.signal,
    isUsable,
  });
  const source = await ensureCachedBuild({
    dir,
    what: `etcd and kube-apiserver ${version}`,
    code: "ERR_CONTROL_PLANE",
    isUsable,
    preflight,
    fill,
    log,
    signal: options.signal,
  });
  return { ...pathsIn(dir), source };
}

const pathsIn = (dir: string): { etcd: string; kubeApiserver: string } => ({
  etcd: join(dir, "etcd"),
  kubeApiserver: join(dir, "kube-apiserver"),
});

async function binariesFromEnv(env: NodeJS.ProcessEnv): Promise<ControlPlaneBinaries | undefined> {
  const assets = env.KUBEBUILDER_ASSETS;
  const pick = (variable: string, name: string): [string, string] | undefined => {
    if (env[variable]) return [resolve(env[variable]), variable];
    return assets ? [resolve(assets, name), "KUBEBUILDER_ASSETS"] : undefined;
  };
  const etcd = pick("TEST_ASSET_ETCD", "etcd");
  const kubeApiserver = pick("TEST_ASSET_KUBE_APISERVER", "kube-apiserver");
  if (!etcd && !kubeApiserver) return undefined;
  if (!etcd || !kubeApiserver) {
    throw new CocoonError(
      "ERR_CONTROL_PLANE",
      "set both TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS), or neither to build them",
    );
  }
  for (const [path, variable] of [etcd, kubeApiserver]) {
    if (!(await isExecutable(path))) {
      throw new CocoonError("ERR_CONTROL_PLANE", `${path} (from ${variable}) is not an executable file`);
    }
  }
  return { etcd: etcd[0], kubeApiserver: kubeApiserver[0], source: "env" };
}

async function isUsableCache(paths: { etcd: string; kubeApiserver: string }, version: string): Promise<boolean> {
  if (!(await isExecutable(paths.etcd)) || !(await isExecutable(paths.kubeApiserver))) return false;
  try {
    const [api] = await Promise.all([runCommand(paths.kubeApiserver, ["--version"]), runCommand(paths.etcd, ["--version"])]);
    return api.stdout.trim() === `Kubernetes ${version}`;
  } catch {
    return false;
  }
}

import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import { controlPlaneCacheRoot } from "./cache-dir.js";
import { ensureCachedBuild } from "./cached-build.js";
import { downloadComponentBinary } from "./component-download.js";
import { componentRelease, schedulerDownloadBaseFrom, type KubernetesComponent } from "./component-release.js";
import { buildWithGo } from "./control-plane-build.js";
import type { BinarySource, EnsureBinariesOptions } from "./control-plane-binaries.js";
import { downloadThenBuild } from "./download-then-build.js";
import { isExecutable } from "./executable.js";
import { kubernetesVersionFrom } from "./kubernetes-version.js";
import { runCommand } from "./run-command.js";
import { KUBERNETES_VERSIONS } from "./versions.js";

/**
 * Options of {@link ensureSchedulerBinary} and {@link ensureControllerManagerBinary}.
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

/** `TEST_ASSET_KUBE_SCHEDULER` for `kube-scheduler`: the variable that points at a given binary. */
const assetVariable = (command: KubernetesComponent): string => `TEST_ASSET_${command.toUpperCase().replaceAll("-", "_")}`;

/**
 * Finds, downloads or builds one Kubernetes component of the API server's release; see
 * {@link ensureSchedulerBinary}, which documents the order, and {@link ensureControllerManagerBinary}.
 *
 * @returns The binary's absolute path and how it was found.
 * @internal
 */
export async function ensureComponentBinary(
  command: KubernetesComponent,
  options: EnsureSchedulerBinaryOptions = {},
): Promise<{ path: string; source: BinarySource }> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`[controlplane] ${line}\n`));
  const variable = assetVariable(command);
  const fromEnv = await componentFromEnv(command, variable, env);
  if (fromEnv) return fromEnv;

  const version = options.kubernetesVersion ?? kubernetesVersionFrom(env);
  const hint = `${variable} at an existing ${command} of the API server's release`;
  if (!(KUBERNETES_VERSIONS as readonly string[]).includes(version)) {
    throw new CocoonError(
      "ERR_CONTROL_PLANE",
      `${command} ${version} cannot be fetched here: use one of ${KUBERNETES_VERSIONS.join(", ")}, ` +
        `or point ${variable} at a ${command} of the API server's release`,
    );
  }
  const dir = options.cacheDir ?? join(controlPlaneCacheRoot(env), version);
  const isUsable = (d: string): Promise<boolean> => runsAsVersion(join(d, command), version);
  const downloadBase = options.downloadUrl === false ? undefined : (options.downloadUrl ?? schedulerDownloadBaseFrom(env));
  const release = downloadBase === undefined ? undefined : componentRelease(downloadBase, version, undefined, undefined, command);
  const what = `${command} ${version}`;
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
      run: (outDir) => downloadComponentBinary(release, outDir, { log, idleTimeoutMs: options.downloadTimeoutMs, signal }),
      unusable: () => new CocoonError("ERR_CONTROL_PLANE", `the binary from ${release.url} does not run as ${what}`),
    },
    buildNote: `the build takes a few minutes on 2 cores, less when kube-apiserver was built first (they share Go's build cache)`,
    build: (outDir) => buildWithGo(outDir, { log, env, signal, version, commands: [command], goMissingHint: hint }),
    noWay: {
      code: "ERR_CONTROL_PLANE",
      downloadBase,
      variable: "COCOON_SCHEDULER_DOWNLOAD_URL",
      publisher: `Kubernetes publishes no ${command}`,
      pronoun: "it",
      remedy: `point COCOON_SCHEDULER_DOWNLOAD_URL at a mirror of the Kubernetes release binaries, or point ${hint}`,
    },
  });
  const source = await ensureCachedBuild({ dir, what, code: "ERR_CONTROL_PLANE", isUsable, preflight, fill, log, signal });
  return { path: join(dir, command), source };
}

async function componentFromEnv(
  command: KubernetesComponent,
  variable: string,
  env: NodeJS.ProcessEnv,
): Promise<{ path: string; source: BinarySource } | undefined> {
  const given = env[variable];
  if (given) {
    const path = resolve(given);
    if (!(await isExecutable(path))) throw new CocoonError("ERR_CONTROL_PLANE", `${path} (from ${variable}) is not an executable file`);
    return { path, source: "env" };
  }
  const inAssets = env.KUBEBUILDER_ASSETS ? resolve(env.KUBEBUILDER_ASSETS, command) : undefined;
  return inAssets !== undefined && (await isExecutable(inAssets)) ? { path: inAssets, source: "env" } : undefined;
}

async function runsAsVersion(path: string, version: string): Promise<boolean> {
  if (!(await isExecutable(path))) return false;
  const result = await runCommand(path, ["--version"]).catch(() => undefined);
  return result?.stdout.trim() === `Kubernetes ${version}`;
}

/**
 * Finding the binaries the tests run: each component is looked up in `TEST_ASSET_*` (and envtest's
 * `KUBEBUILDER_ASSETS`), then in its version-keyed cache, else downloaded, else built with Go.
 */
import { join, resolve } from "node:path";
import { CocoonError } from "../../errors.js";
import { buildWithGo, kubernetesModule, REGISTRY_MODULE, type GoModule } from "./build.js";
import { controlPlaneCacheRoot, ensureCached, registryCacheRoot } from "./cache.js";
import { findOnPath, isExecutable, runCommand, type ProgressLog } from "./command.js";
import { downloadRelease, type Release } from "./download.js";
import {
  COMPONENT_DOWNLOAD_URL,
  DISTRIBUTION_VERSION,
  downloadBaseFrom,
  ENVTEST_DOWNLOAD_URL,
  envtestArchive,
  kubernetesRelease,
  KUBERNETES_VERSIONS,
  kubernetesVersionFrom,
  REGISTRY_DOWNLOAD_URL,
  registryArchive,
} from "./versions.js";

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
 * Where the `kube-controller-manager` binary is and how {@link ensureControllerManagerBinary} found it.
 *
 * @example
 * ```ts
 * const found: ControllerManagerBinary = await ensureControllerManagerBinary();
 * found.kubeControllerManager; // => "/home/me/.cache/cocoon-common/controlplane/v1.35.4/kube-controller-manager"
 * ```
 */
export interface ControllerManagerBinary {
  /** Absolute path of `kube-controller-manager`. */
  kubeControllerManager: string;
  /** `env` (TEST_ASSET_KUBE_CONTROLLER_MANAGER or KUBEBUILDER_ASSETS), `cache`, `download` or `build`. */
  source: BinarySource;
}

/** Where the registry binary is and how {@link ensureRegistryBinary} found it. */
export interface RegistryBinary {
  /** Absolute path of the distribution `registry`. */
  registry: string;
  /** `env` (TEST_ASSET_REGISTRY), `cache` (there earlier), `download` or `build` (by this call). */
  source: BinarySource;
}

/** Options of every `ensure*Binary` function. */
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

/** Options of {@link ensureRegistryBinary}. */
export interface EnsureRegistryBinaryOptions extends EnsureBinariesOptions {
  /**
   * Base URL of the downloads, in their publisher's layout, or `false` to build with Go only.
   *
   * Default: the component's variable (`off` turns downloads off), else its publisher:
   * `$COCOON_REGISTRY_DOWNLOAD_URL` or {@link REGISTRY_DOWNLOAD_URL} for the registry,
   * `$COCOON_CONTROLPLANE_DOWNLOAD_URL` or {@link ENVTEST_DOWNLOAD_URL} for etcd and kube-apiserver,
   * `$COCOON_COMPONENT_DOWNLOAD_URL` or {@link COMPONENT_DOWNLOAD_URL} for kube-scheduler and kube-controller-manager.
   */
  downloadUrl?: string | false;
  /** Give up a download when no bytes arrive for this long; default 30 s. */
  downloadTimeoutMs?: number;
}

/** Options of {@link ensureControlPlaneBinaries}. */
export interface EnsureControlPlaneBinariesOptions extends EnsureRegistryBinaryOptions {
  /**
   * The Kubernetes release, one of {@link KUBERNETES_VERSIONS} (for a component, the API server's);
   * default `$COCOON_KUBERNETES_VERSION` (a release or its minor), else {@link KUBERNETES_VERSION}.
   * Each has its own cache folder.
   */
  kubernetesVersion?: string;
}

/**
 * Options of {@link ensureSchedulerBinary} and {@link ensureControllerManagerBinary}: those of
 * {@link ensureControlPlaneBinaries}, whose downloads come from `COCOON_COMPONENT_DOWNLOAD_URL`.
 *
 * @example
 * ```ts
 * const options: EnsureSchedulerBinaryOptions = { kubernetesVersion: "v1.36.3", downloadUrl: false }; // Go build only
 * await ensureSchedulerBinary(options);
 * ```
 */
export type EnsureSchedulerBinaryOptions = EnsureControlPlaneBinariesOptions;

/** One row of {@link COMPONENTS}: what a component puts in its cache folder, and where it comes from. */
interface Component<B extends string = string> {
  /** Its binaries, each found in `TEST_ASSET_<NAME>` when set. */
  readonly binaries: readonly B[];
  /** What it is called in progress lines and errors, before its version. */
  readonly name: string;
  readonly code: "ERR_CONTROL_PLANE" | "ERR_TEST_REGISTRY";
  /** Prefix of its default progress lines. */
  readonly prefix: string;
  /** `all`: `$KUBEBUILDER_ASSETS` holds every binary (envtest's layout); `each`: those it holds; `none`: not read. */
  readonly assets: "all" | "each" | "none";
  /** The variable that names the download mirror, its default, and what a mirror holds. */
  readonly mirror: { readonly variable: string; readonly url: string; readonly of: string; readonly publisher: string };
  /** Whether it is of a Kubernetes release (the API server's); the registry has one version. */
  readonly kubernetes: boolean;
  cacheRoot(env: NodeJS.ProcessEnv): string;
  release(base: string, version: string): Release | undefined;
  module(version: string): GoModule;
  /** A line on what the Go build costs, logged before it starts. */
  readonly buildNote: string;
  /** What to point at instead, in errors. */
  given(version: string): string;
}

/** `TEST_ASSET_KUBE_SCHEDULER` for `kube-scheduler`: envtest's variable that points at a given binary. */
const assetVariable = (binary: string): string => `TEST_ASSET_${binary.toUpperCase().replaceAll("-", "_")}`;

const kubernetesComponent = <C extends string>(command: C): Component<C> => ({
  binaries: [command],
  name: command,
  code: "ERR_CONTROL_PLANE",
  prefix: "controlplane",
  assets: "each",
  mirror: {
    variable: "COCOON_COMPONENT_DOWNLOAD_URL",
    url: COMPONENT_DOWNLOAD_URL,
    of: "the Kubernetes release binaries",
    publisher: `Kubernetes publishes no ${command}`,
  },
  kubernetes: true,
  cacheRoot: controlPlaneCacheRoot,
  release: (base, version) => kubernetesRelease(base, version, command),
  module: kubernetesModule,
  buildNote: "the build takes a few minutes on 2 cores, less when kube-apiserver was built first (they share Go's build cache)",
  given: () => `${assetVariable(command)} at an existing ${command} of the API server's release`,
});

/** The components the tests run, each fetched the same way. */
const COMPONENTS = {
  controlPlane: {
    binaries: ["etcd", "kube-apiserver"],
    name: "etcd and kube-apiserver",
    code: "ERR_CONTROL_PLANE",
    prefix: "controlplane",
    assets: "all",
    mirror: {
      variable: "COCOON_CONTROLPLANE_DOWNLOAD_URL",
      url: ENVTEST_DOWNLOAD_URL,
      of: "the envtest archives",
      publisher: "envtest publishes no archive",
    },
    kubernetes: true,
    cacheRoot: controlPlaneCacheRoot,
    release: envtestArchive,
    module: kubernetesModule,
    buildNote: "the first build takes several minutes (3-6 on 2 cores) and about 2 GB of Go build cache; later runs reuse it",
    given: () => "TEST_ASSET_ETCD and TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries",
  },
  kubeScheduler: kubernetesComponent("kube-scheduler"),
  kubeControllerManager: kubernetesComponent("kube-controller-manager"),
  registry: {
    binaries: ["registry"],
    name: "the distribution registry",
    code: "ERR_TEST_REGISTRY",
    prefix: "registry",
    assets: "none",
    mirror: {
      variable: "COCOON_REGISTRY_DOWNLOAD_URL",
      url: REGISTRY_DOWNLOAD_URL,
      of: "the distribution release archives",
      publisher: "the distribution release publishes no archive",
    },
    kubernetes: false,
    cacheRoot: registryCacheRoot,
    release: registryArchive,
    module: () => REGISTRY_MODULE,
    buildNote: "the first build takes a minute or two and about 500 MB of Go build cache; later runs reuse it",
    given: (version) => `TEST_ASSET_REGISTRY at an existing distribution registry ${version} binary`,
  },
} as const satisfies Record<string, Component>;

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
 * @throws CocoonError `ERR_CONTROL_PLANE` when a configured path is missing, the release is not one of
 * {@link KUBERNETES_VERSIONS}, or the download is off or fails and there is no `go` to build with
 * (then before waiting on any other process).
 *
 * @example
 * ```ts
 * const { etcd, kubeApiserver, source } = await ensureControlPlaneBinaries();
 * ```
 */
export async function ensureControlPlaneBinaries(options: EnsureControlPlaneBinariesOptions = {}): Promise<ControlPlaneBinaries> {
  const { paths, source } = await ensureComponent(COMPONENTS.controlPlane, options);
  return { etcd: paths.etcd, kubeApiserver: paths["kube-apiserver"], source };
}

/**
 * Finds, downloads or builds `kube-scheduler` for `startControlPlane({ scheduler: true })`.
 *
 * Order: `TEST_ASSET_KUBE_SCHEDULER`, then `$KUBEBUILDER_ASSETS/kube-scheduler` when that folder has
 * one (envtest's archives do not), then the version-keyed control-plane cache (the folder of
 * {@link controlPlaneCacheDir}, beside etcd and kube-apiserver, which stay as they are), else the
 * published release binary checked against its `.sha256` (`COCOON_COMPONENT_DOWNLOAD_URL`, see
 * `downloadUrl`), else a build with Go of `k8s.io/kubernetes/cmd/kube-scheduler` in the control plane's
 * wrapper module (a few minutes, much less after kube-apiserver was built: they share Go's build cache).
 * One process downloads or builds while the others wait, on the same lock as {@link ensureControlPlaneBinaries}.
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
  const { paths, source } = await ensureComponent(COMPONENTS.kubeScheduler, options);
  return { kubeScheduler: paths["kube-scheduler"], source };
}

/**
 * Finds, downloads or builds `kube-controller-manager` for `startControlPlane({ controllerManager: true })`,
 * exactly as {@link ensureSchedulerBinary} does kube-scheduler: `TEST_ASSET_KUBE_CONTROLLER_MANAGER`,
 * `$KUBEBUILDER_ASSETS/kube-controller-manager`, the version-keyed cache beside etcd and kube-apiserver,
 * the published release binary (`COCOON_COMPONENT_DOWNLOAD_URL` names the mirror of both), else a Go
 * build of `k8s.io/kubernetes/cmd/kube-controller-manager` in the same wrapper module.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` as {@link ensureSchedulerBinary} does, naming kube-controller-manager.
 * @example
 * ```ts
 * const { kubeControllerManager, source } = await ensureControllerManagerBinary({ kubernetesVersion: "v1.35.4" });
 * ```
 */
export async function ensureControllerManagerBinary(options: EnsureSchedulerBinaryOptions = {}): Promise<ControllerManagerBinary> {
  const { paths, source } = await ensureComponent(COMPONENTS.kubeControllerManager, options);
  return { kubeControllerManager: paths["kube-controller-manager"], source };
}

/**
 * Finds, downloads or builds the CNCF distribution `registry` ({@link DISTRIBUTION_VERSION}) for `startRegistry`.
 *
 * Order: `TEST_ASSET_REGISTRY` (a path to the binary), then the version-keyed cache, then the
 * release archive `registry_3.1.2_linux_<arch>.tar.gz` checked against its published SHA-256 (see
 * `downloadUrl`), else a build with Go from the module proxy (about a minute on 2 cores). One
 * process downloads or builds while the others wait, exactly as {@link ensureControlPlaneBinaries}
 * does for the control plane.
 *
 * @throws CocoonError `ERR_TEST_REGISTRY` when `TEST_ASSET_REGISTRY` is not executable, or when the
 * download is off or fails and there is no `go` to build with (then before waiting on any other process).
 * @example
 * ```ts
 * const { registry, source } = await ensureRegistryBinary();
 * ```
 */
export async function ensureRegistryBinary(options: EnsureRegistryBinaryOptions = {}): Promise<RegistryBinary> {
  const { paths, source } = await ensureComponent(COMPONENTS.registry, options);
  return { registry: paths.registry, source };
}

/** The one path every component takes: given binaries, else the cache, else a download, else a Go build. */
async function ensureComponent<B extends string>(
  component: Component<B>,
  options: EnsureControlPlaneBinariesOptions,
): Promise<{ paths: Record<B, string>; source: BinarySource }> {
  const env = options.env ?? process.env;
  const given = await givenBinaries(component, env);
  if (given) return { paths: given, source: "env" };

  const version = component.kubernetes ? (options.kubernetesVersion ?? kubernetesVersionFrom(env)) : DISTRIBUTION_VERSION;
  const what = `${component.name} ${version}`;
  if (component.kubernetes && !(KUBERNETES_VERSIONS as readonly string[]).includes(version)) {
    throw new CocoonError(
      component.code,
      `${what} cannot be fetched here: use one of ${KUBERNETES_VERSIONS.join(", ")}, or point ${component.given(version)}`,
    );
  }
  const { binaries, code, mirror } = component;
  const dir = options.cacheDir ?? join(component.cacheRoot(env), version);
  const log = options.log ?? ((line: string) => process.stderr.write(`[${component.prefix}] ${line}\n`));
  const { signal } = options;
  const base = options.downloadUrl === false ? undefined : (options.downloadUrl ?? downloadBaseFrom(env, mirror.variable, mirror.url));
  const release = base === undefined ? undefined : component.release(base, version);
  const isUsable = (folder: string): Promise<boolean> => runAsVersion(binaries, folder, version);
  const hasGo = async (): Promise<boolean> => (await findOnPath("go", env)) !== undefined;

  /** The error when there is neither a download nor a `go`: downloads are off, none is published, or it failed. */
  const noWay = (failure?: Error): CocoonError => {
    const download =
      failure !== undefined
        ? `the download failed (${failure.message})`
        : base === undefined
          ? `downloads are off (${mirror.variable}=off)`
          : `${mirror.publisher} for ${process.platform}/${process.arch}`;
    const remedy = `point ${mirror.variable} at a mirror of ${mirror.of}, or point ${component.given(version)}`;
    const message = `cannot get ${what}: ${download}, and \`go\` is not on PATH to build ${binaries.length > 1 ? "them" : "it"}. Install Go >= 1.25, ${remedy}.`;
    return new CocoonError(code, message, failure !== undefined ? { cause: failure } : undefined);
  };
  /** Downloads into `outDir`; resolves to why that failed, or `undefined` when it holds binaries that run. */
  const download = async (from: Release, outDir: string): Promise<Error | undefined> => {
    try {
      await downloadRelease(from, outDir, { log, idleTimeoutMs: options.downloadTimeoutMs, signal });
    } catch (err) {
      signal?.throwIfAborted();
      return err as Error;
    }
    return (await isUsable(outDir)) ? undefined : new CocoonError(code, `${from.name} from ${from.url} does not run as ${what}`);
  };

  const source = await ensureCached({
    dir,
    what,
    code,
    isUsable,
    log,
    signal,
    async preflight() {
      if (release === undefined && !(await hasGo())) throw noWay();
    },
    async fill(outDir) {
      if (release !== undefined) {
        const failure = await download(release, outDir);
        if (failure === undefined) return "download";
        if (!(await hasGo())) throw noWay(failure);
        log(`${failure.message}; building with go instead`);
      }
      log(`building ${what} into ${dir}`);
      log(component.buildNote);
      await buildWithGo(outDir, component.module(version), binaries, { what, given: component.given(version), code, log, env, signal });
      return "build";
    },
  });
  return { paths: pathsIn(binaries, (binary) => join(dir, binary)), source };
}

const pathsIn = <B extends string>(binaries: readonly B[], path: (binary: B) => string): Record<B, string> =>
  Object.fromEntries(binaries.map((binary) => [binary, path(binary)])) as Record<B, string>;

/**
 * The component's binaries as the environment gives them: `TEST_ASSET_<NAME>` each, else
 * `$KUBEBUILDER_ASSETS/<name>` as {@link Component.assets} says; `undefined` when it gives none.
 */
async function givenBinaries<B extends string>(component: Component<B>, env: NodeJS.ProcessEnv): Promise<Record<B, string> | undefined> {
  const assets = component.assets === "none" ? undefined : env.KUBEBUILDER_ASSETS;
  const picks: { binary: B; path: string; variable: string }[] = [];
  for (const binary of component.binaries) {
    const variable = assetVariable(binary);
    const inAssets = assets === undefined || assets === "" ? undefined : resolve(assets, binary);
    if (env[variable]) picks.push({ binary, path: resolve(env[variable]), variable });
    else if (inAssets !== undefined && (component.assets === "all" || (await isExecutable(inAssets))))
      picks.push({ binary, path: inAssets, variable: "KUBEBUILDER_ASSETS" });
  }
  if (picks.length === 0) return undefined;
  if (picks.length < component.binaries.length) {
    const variables = component.binaries.map(assetVariable).join(" and ");
    throw new CocoonError(component.code, `set both ${variables} (or KUBEBUILDER_ASSETS), or neither to build them`);
  }
  for (const { path, variable } of picks) {
    if (!(await isExecutable(path))) throw new CocoonError(component.code, `${path} (from ${variable}) is not an executable file`);
  }
  return pathsIn(component.binaries, (binary) => picks.find((pick) => pick.binary === binary)?.path ?? "");
}

/** Reports whether each binary in `dir` runs and prints `version` (`v3.1.2+unknown` counts); etcd only has to run. */
async function runAsVersion(binaries: readonly string[], dir: string, version: string): Promise<boolean> {
  const runs = await Promise.all(
    binaries.map(async (binary) => {
      const path = join(dir, binary);
      if (!(await isExecutable(path))) return false;
      const result = await runCommand(path, ["--version"]).catch(() => undefined);
      return (
        result !== undefined && (binary === "etcd" || result.stdout.split(/\s+/).some((w) => w === version || w.startsWith(`${version}+`)))
      );
    }),
  );
  return runs.every(Boolean);
}

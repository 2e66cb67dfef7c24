import { CocoonError } from "../../errors.js";
import type { ProgressLog } from "./build-progress.js";
import { buildWithGo } from "./control-plane-build.js";
import { envtestArchive, type EnvtestArchive } from "./envtest-archive.js";
import { downloadEnvtestBinaries } from "./envtest-download.js";
import { findOnPath } from "./find-on-path.js";
import { KUBERNETES_VERSION } from "./versions.js";

/** How {@link controlPlaneFill} may fill the cache. */
export interface ControlPlaneFillOptions {
  /** The final cache folder, for progress lines. */
  dir: string;
  /** Base URL of the envtest archives, or `undefined` to build with Go only. */
  downloadBase: string | undefined;
  /** Idle timeout of the download. */
  downloadTimeoutMs?: number | undefined;
  /** Environment of `go` (its `PATH` decides whether there is one). */
  env: NodeJS.ProcessEnv;
  /** Progress lines. */
  log: ProgressLog;
  /** Aborts a download or build. */
  signal?: AbortSignal | undefined;
  /** Reports whether a folder holds binaries that run; a download that does not is discarded. */
  isUsable(dir: string): Promise<boolean>;
}

const WHAT = `etcd and kube-apiserver ${KUBERNETES_VERSION}`;

/**
 * Plans how to fill the control-plane cache: the envtest download first, then a Go build.
 *
 * `preflight` fails at once, with one message, when there is neither a download URL for this
 * platform nor a `go` on PATH. `fill` tries the download; when it fails it logs why and builds
 * with Go, or, without Go, throws `ERR_CONTROL_PLANE` naming the failed download as its cause.
 *
 * @internal
 */
export function controlPlaneFill(options: ControlPlaneFillOptions): {
  preflight(): Promise<void>;
  fill(outDir: string): Promise<"download" | "build">;
} {
  const archive = options.downloadBase === undefined ? undefined : envtestArchive(options.downloadBase);
  const hasGo = async (): Promise<boolean> => (await findOnPath("go", options.env)) !== undefined;
  return {
    async preflight() {
      if (archive === undefined && !(await hasGo())) throw noWayToGetBinaries(options.downloadBase);
    },
    async fill(outDir) {
      if (archive !== undefined) {
        const failure = await tryDownload(archive, outDir, options);
        if (failure === undefined) return "download";
        if (!(await hasGo())) throw noWayToGetBinaries(options.downloadBase, failure);
        options.log(`${failure.message}; building with go instead`);
      }
      options.log(`building ${WHAT} into ${options.dir}`);
      options.log("the first build takes several minutes (3-6 on 2 cores) and about 2 GB of Go build cache; later runs reuse it");
      await buildWithGo(outDir, { log: options.log, env: options.env, signal: options.signal });
      return "build";
    },
  };
}

async function tryDownload(archive: EnvtestArchive, outDir: string, options: ControlPlaneFillOptions): Promise<Error | undefined> {
  try {
    await downloadEnvtestBinaries(archive, outDir, { log: options.log, idleTimeoutMs: options.downloadTimeoutMs, signal: options.signal });
  } catch (err) {
    options.signal?.throwIfAborted();
    return err as Error;
  }
  if (await options.isUsable(outDir)) return undefined;
  return new CocoonError(
    "ERR_CONTROL_PLANE",
    `the binaries in ${archive.name} from ${archive.url} do not run as kube-apiserver ${KUBERNETES_VERSION}`,
  );
}

function noWayToGetBinaries(downloadBase: string | undefined, failure?: Error): CocoonError {
  const download =
    failure !== undefined
      ? `the download failed (${failure.message})`
      : downloadBase === undefined
        ? "downloads are off (COCOON_CONTROLPLANE_DOWNLOAD_URL=off)"
        : `envtest publishes no archive for ${process.platform}/${process.arch}`;
  return new CocoonError(
    "ERR_CONTROL_PLANE",
    `cannot get ${WHAT}: ${download}, and \`go\` is not on PATH to build them. Install Go >= 1.25, ` +
      "point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, or point TEST_ASSET_ETCD and " +
      "TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries.",
    failure !== undefined ? { cause: failure } : undefined,
  );
}

import { CocoonError } from "../../errors.js";
import type { ProgressLog } from "./build-progress.js";
import { buildWithGo } from "./control-plane-build.js";
import { downloadThenBuild } from "./download-then-build.js";
import { envtestArchive } from "./envtest-archive.js";
import { downloadEnvtestBinaries } from "./envtest-download.js";

/** How {@link controlPlaneFill} may fill the cache. */
export interface ControlPlaneFillOptions {
  /** The final cache folder, for progress lines. */
  dir: string;
  /** The Kubernetes release to download or build, `v1.35.4`. */
  version: string;
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
  const what = `etcd and kube-apiserver ${options.version}`;
  const archive =
    options.downloadBase === undefined ? undefined : envtestArchive(options.downloadBase, process.platform, process.arch, options.version);
  const { log, signal, downloadTimeoutMs: idleTimeoutMs } = options;
  return downloadThenBuild({
    ...options,
    what,
    download: archive && {
      run: (outDir) => downloadEnvtestBinaries(archive, outDir, { log, idleTimeoutMs, signal }),
      unusable: () =>
        new CocoonError(
          "ERR_CONTROL_PLANE",
          `the binaries in ${archive.name} from ${archive.url} do not run as kube-apiserver ${options.version}`,
        ),
    },
    buildNote: "the first build takes several minutes (3-6 on 2 cores) and about 2 GB of Go build cache; later runs reuse it",
    build: (outDir) => buildWithGo(outDir, { log, env: options.env, signal, version: options.version }),
    noWay: {
      code: "ERR_CONTROL_PLANE",
      downloadBase: options.downloadBase,
      variable: "COCOON_CONTROLPLANE_DOWNLOAD_URL",
      publisher: "envtest publishes no archive",
      pronoun: "them",
      remedy:
        "point COCOON_CONTROLPLANE_DOWNLOAD_URL at a mirror of the envtest archives, or point TEST_ASSET_ETCD and " +
        "TEST_ASSET_KUBE_APISERVER (or KUBEBUILDER_ASSETS) at existing etcd and kube-apiserver binaries",
    },
  });
}

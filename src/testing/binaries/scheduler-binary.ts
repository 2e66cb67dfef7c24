import { ensureComponentBinary, type EnsureSchedulerBinaryOptions } from "./component-binary.js";
import type { BinarySource } from "./control-plane-binaries.js";

export type { EnsureSchedulerBinaryOptions } from "./component-binary.js";

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
  const { path, source } = await ensureComponentBinary("kube-scheduler", options);
  return { kubeScheduler: path, source };
}

import { ensureComponentBinary, type EnsureSchedulerBinaryOptions } from "./component-binary.js";
import type { BinarySource } from "./control-plane-binaries.js";

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

/**
 * Finds, downloads or builds `kube-controller-manager` for `startControlPlane({ controllerManager: true })`,
 * exactly as {@link ensureSchedulerBinary} does kube-scheduler: `TEST_ASSET_KUBE_CONTROLLER_MANAGER`,
 * `$KUBEBUILDER_ASSETS/kube-controller-manager`, the version-keyed cache beside etcd and kube-apiserver,
 * the published release binary (`COCOON_SCHEDULER_DOWNLOAD_URL` names the mirror of both), else a Go
 * build of `k8s.io/kubernetes/cmd/kube-controller-manager` in the same wrapper module.
 *
 * @throws CocoonError `ERR_CONTROL_PLANE` as {@link ensureSchedulerBinary} does, naming kube-controller-manager.
 * @example
 * ```ts
 * const { kubeControllerManager, source } = await ensureControllerManagerBinary({ kubernetesVersion: "v1.35.4" });
 * ```
 */
export async function ensureControllerManagerBinary(options: EnsureSchedulerBinaryOptions = {}): Promise<ControllerManagerBinary> {
  const { path, source } = await ensureComponentBinary("kube-controller-manager", options);
  return { kubeControllerManager: path, source };
}

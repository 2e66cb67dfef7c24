/**
 * A real Kubernetes control plane (etcd + kube-apiserver) for Node tests, like controller-runtime's envtest.
 *
 * `startControlPlane()` runs both binaries on free loopback ports with RBAC, throwaway credentials
 * and our CRDs installed; `ensureControlPlaneBinaries()` finds them (`TEST_ASSET_ETCD` /
 * `TEST_ASSET_KUBE_APISERVER`, `KUBEBUILDER_ASSETS`) or builds them once with Go into a cache.
 *
 * @module
 */
export { ensureControlPlaneBinaries } from "./binaries/control-plane-binaries.js";
export type { BinarySource, ControlPlaneBinaries, EnsureBinariesOptions } from "./binaries/control-plane-binaries.js";
export type { ProgressLog } from "./binaries/build-progress.js";
export { controlPlaneCacheDir } from "./binaries/cache-dir.js";
export { connectToControlPlane } from "./control-plane/connection.js";
export type { ControlPlaneClient, ControlPlaneConnection } from "./control-plane/connection.js";
export { startControlPlane } from "./control-plane/control-plane.js";
export type { ControlPlane, StartControlPlaneOptions } from "./control-plane/control-plane.js";
export { ADMIN_USER } from "./control-plane/credentials.js";
export { KUBERNETES_VERSION } from "./binaries/versions.js";
export type { CertificateAndKey } from "./control-plane/x509.js";

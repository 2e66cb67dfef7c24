/**
 * Real servers for Node tests: a Kubernetes control plane (etcd + kube-apiserver, and kube-scheduler
 * when asked), like controller-runtime's envtest, and a CNCF distribution registry.
 *
 * `startControlPlane()` runs both binaries on free loopback ports with RBAC, throwaway credentials
 * and our CRDs installed; `ensureControlPlaneBinaries()` finds them (`TEST_ASSET_ETCD` /
 * `TEST_ASSET_KUBE_APISERVER`, `KUBEBUILDER_ASSETS`), or downloads envtest's prebuilt archive
 * (`COCOON_CONTROLPLANE_DOWNLOAD_URL`), or builds them once with Go into a cache.
 * `startControlPlane({ scheduler: true })` adds a kube-scheduler of the same release
 * (`ensureSchedulerBinary()`: `TEST_ASSET_KUBE_SCHEDULER`, the published binary from
 * `COCOON_COMPONENT_DOWNLOAD_URL`, or a Go build), and
 * `registerNode()` creates the schedulable cocoon nodes it places pods on.
 * `startControlPlane({ controllerManager: true })` adds kube-controller-manager (node lifecycle and
 * garbage collector; `ensureControllerManagerBinary()`, found or built the same way), so a node kept by
 * `keepNode` in `./k8s` is tainted and untainted by the real controller.
 * `startRegistry()` runs the registry on a free loopback port with deletes enabled, anonymous or
 * with htpasswd or token auth; `ensureRegistryBinary()` finds it (`TEST_ASSET_REGISTRY`), or downloads the
 * distribution release archive (`COCOON_REGISTRY_DOWNLOAD_URL`), or builds it the same way.
 *
 * @module
 */
export {
  ensureControlPlaneBinaries,
  ensureControllerManagerBinary,
  ensureRegistryBinary,
  ensureSchedulerBinary,
} from "./binaries/binaries.js";
export type {
  BinarySource,
  ControllerManagerBinary,
  ControlPlaneBinaries,
  EnsureBinariesOptions,
  EnsureControlPlaneBinariesOptions,
  EnsureRegistryBinaryOptions,
  EnsureSchedulerBinaryOptions,
  RegistryBinary,
  SchedulerBinary,
} from "./binaries/binaries.js";
export { BinaryDownloadError, DownloadFailure } from "./binaries/download.js";
export type { ProgressLog } from "./binaries/command.js";
export { controlPlaneCacheDir, registryCacheDir } from "./binaries/cache.js";
export { connectToControlPlane } from "./control-plane/connection.js";
export type { ControlPlaneClient, ControlPlaneConnection } from "./control-plane/connection.js";
export { startControlPlane } from "./control-plane/control-plane.js";
export type { ControlPlane, StartControlPlaneOptions } from "./control-plane/control-plane.js";
export { ADMIN_USER } from "./control-plane/credentials.js";
export { AuditEventSchema, DEFAULT_MAX_AUDIT_BYTES } from "./control-plane/audit-log.js";
export type { AuditEvent, AuditEventsOptions } from "./control-plane/audit-log.js";
export { serviceAccountUser } from "./control-plane/service-account.js";
export type { ServiceAccountKubeConfigOptions } from "./control-plane/service-account.js";
export { resourceRequestOf, ruleAllows } from "./rbac/rule-allows.js";
export type { ResourceRequest } from "./rbac/rule-allows.js";
export { DEFAULT_NODE_CAPACITY, registerNode } from "./control-plane/register-node.js";
export type { RegisterNodeKeepOptions, RegisterNodeOptions } from "./control-plane/register-node.js";
export { SCHEDULER_USER } from "./control-plane/scheduler.js";
export { CONTROLLER_MANAGER_USER } from "./control-plane/controller-manager.js";
export {
  COMPONENT_DOWNLOAD_URL,
  DISTRIBUTION_VERSION,
  ENVTEST_DOWNLOAD_URL,
  KUBERNETES_VERSION,
  KUBERNETES_VERSIONS,
  kubernetesVersionFrom,
  REGISTRY_ARCHIVE_SHA256,
  REGISTRY_DOWNLOAD_URL,
} from "./binaries/versions.js";
export { startRegistry } from "./registry/start-registry.js";
export type { StartRegistryOptions, TestRegistry, TestRegistryAuth } from "./registry/start-registry.js";
export type { TokenUser } from "./registry/token-issuer.js";
export type { CertificateAndKey } from "./control-plane/x509.js";

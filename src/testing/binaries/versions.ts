/**
 * Kubernetes release whose `kube-apiserver` the test control plane runs by default.
 *
 * The build pins every `k8s.io/*` staging module to the matching `v0.<minor>.<patch>` (v0.35.4) and
 * takes etcd at the version the release's `go.mod` requires (v3.6.5 for v1.35.4).
 */
export const KUBERNETES_VERSION = "v1.35.4";

/**
 * Kubernetes releases the test control plane can run: the newest patch of each minor the integration
 * suite is proven on (CI runs it on each). {@link KUBERNETES_VERSION} is the default.
 */
export const KUBERNETES_VERSIONS = ["v1.35.4", "v1.36.3", "v1.37.2"] as const;

/** Go module path of the etcd server built next to `kube-apiserver`. */
export const ETCD_MODULE = "go.etcd.io/etcd/server/v3";

/** Go package path of the `kube-apiserver` command. */
export const KUBE_APISERVER_PACKAGE = "k8s.io/kubernetes/cmd/kube-apiserver";

/** Go package path of the `kube-scheduler` command, built from the same module as `kube-apiserver`. */
export const KUBE_SCHEDULER_PACKAGE = "k8s.io/kubernetes/cmd/kube-scheduler";

/** Go package path of the `kube-controller-manager` command, built from the same module. */
export const KUBE_CONTROLLER_MANAGER_PACKAGE = "k8s.io/kubernetes/cmd/kube-controller-manager";

/** Version of the CNCF distribution registry that `startRegistry` runs. */
export const DISTRIBUTION_VERSION = "v3.1.2";

/** Go module of the CNCF distribution registry. */
export const DISTRIBUTION_MODULE = "github.com/distribution/distribution/v3";

/** Go package path of its `registry` command. */
export const REGISTRY_PACKAGE = `${DISTRIBUTION_MODULE}/cmd/registry`;

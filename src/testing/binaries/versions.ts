/**
 * Kubernetes release whose `kube-apiserver` the test control plane runs.
 *
 * The build also pins every `k8s.io/*` staging module to `KUBERNETES_STAGING_VERSION` (v0.35.4) and
 * takes etcd at the version this release's `go.mod` requires (v3.6.5 for v1.35.4).
 */
export const KUBERNETES_VERSION = "v1.35.4";

/** Version of the `k8s.io/*` staging modules (`k8s.io/api`, `k8s.io/apiserver`, ...) matching {@link KUBERNETES_VERSION}. */
export const KUBERNETES_STAGING_VERSION = "v0.35.4";

/** Go module path of the etcd server built next to `kube-apiserver`. */
export const ETCD_MODULE = "go.etcd.io/etcd/server/v3";

/** Go package path of the `kube-apiserver` command. */
export const KUBE_APISERVER_PACKAGE = "k8s.io/kubernetes/cmd/kube-apiserver";

/** Version of the CNCF distribution registry that `startRegistry` runs. */
export const DISTRIBUTION_VERSION = "v3.1.2";

/** Go module of the CNCF distribution registry. */
export const DISTRIBUTION_MODULE = "github.com/distribution/distribution/v3";

/** Go package path of its `registry` command. */
export const REGISTRY_PACKAGE = `${DISTRIBUTION_MODULE}/cmd/registry`;

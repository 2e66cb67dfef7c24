package main

// The cocoon-common v0.3.0 meta package, re-declared from go-contract.md §2 in files named after
// Go's (keys.go, utils.go, vmspec.go, vmruntime.go, lifecycle.go), plus k8s.AnnotationsMergePatch
// (§3) in patch.go. Only the annotation map matters to these functions, so a pod is just that.

const (
	annotationMode                        = "cocoonset.cocoonstack.io/mode"
	annotationImage                       = "cocoonset.cocoonstack.io/image"
	annotationStorage                     = "cocoonset.cocoonstack.io/storage"
	annotationManaged                     = "cocoonset.cocoonstack.io/managed"
	annotationOS                          = "cocoonset.cocoonstack.io/os"
	annotationSnapshotPolicy              = "cocoonset.cocoonstack.io/snapshot-policy"
	annotationNetwork                     = "cocoonset.cocoonstack.io/network"
	annotationForcePull                   = "cocoonset.cocoonstack.io/force-pull"
	annotationCocoonSetGeneration         = "cocoonset.cocoonstack.io/generation"
	annotationHibernatedOnNode            = "cocoonset.cocoonstack.io/hibernated-on-node"
	annotationVMID                        = "vm.cocoonstack.io/id"
	annotationVMName                      = "vm.cocoonstack.io/name"
	annotationIP                          = "vm.cocoonstack.io/ip"
	annotationVNCPort                     = "vm.cocoonstack.io/vnc-port"
	annotationHibernate                   = "vm.cocoonstack.io/hibernate"
	annotationRestoreFromHibernate        = "vm.cocoonstack.io/restore-from-hibernate"
	annotationKeepSnapshotOnDelete        = "vm.cocoonstack.io/keep-snapshot-on-delete"
	annotationForkFrom                    = "vm.cocoonstack.io/fork-from"
	annotationConnType                    = "vm.cocoonstack.io/conn-type"
	annotationBackend                     = "vm.cocoonstack.io/backend"
	annotationNoDirectIO                  = "vm.cocoonstack.io/no-direct-io"
	annotationProbePort                   = "vm.cocoonstack.io/probe-port"
	annotationLifecycleState              = "vm.cocoonstack.io/lifecycle-state"
	annotationLifecycleObservedGeneration = "vm.cocoonstack.io/lifecycle-observed-generation"
	annotationLifecycleStateMessage       = "vm.cocoonstack.io/lifecycle-state-message"
	annotationTrue                        = "true"
)

// pod stands in for *corev1.Pod: the meta functions only touch its annotations.
type pod struct{ Annotations map[string]string }

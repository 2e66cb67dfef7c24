// Package bench re-declares the cocoon-common v0.3.0 functions that sit on a controller's hot
// path, from go-contract.md (the Go module itself is not served by the proxy), so that
// `go test -bench` measures what cocoon-operator runs: real corev1.Pod objects, resource.Quantity
// values decoded once from JSON (so String() returns the cached text, as in the operator), and
// encoding/json for merge patches. bench/compare.ts runs these against the TypeScript twins.
package bench

import (
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	annotationMode                        = "cocoonset.cocoonstack.io/mode"
	annotationImage                       = "cocoonset.cocoonstack.io/image"
	annotationStorage                     = "cocoonset.cocoonstack.io/storage"
	annotationManaged                     = "cocoonset.cocoonstack.io/managed"
	annotationOS                          = "cocoonset.cocoonstack.io/os"
	annotationSnapshotPolicy              = "cocoonset.cocoonstack.io/snapshot-policy"
	annotationNetwork                     = "cocoonset.cocoonstack.io/network"
	annotationForcePull                   = "cocoonset.cocoonstack.io/force-pull"
	annotationVMName                      = "vm.cocoonstack.io/name"
	annotationHibernate                   = "vm.cocoonstack.io/hibernate"
	annotationForkFrom                    = "vm.cocoonstack.io/fork-from"
	annotationConnType                    = "vm.cocoonstack.io/conn-type"
	annotationBackend                     = "vm.cocoonstack.io/backend"
	annotationNoDirectIO                  = "vm.cocoonstack.io/no-direct-io"
	annotationProbePort                   = "vm.cocoonstack.io/probe-port"
	annotationLifecycleState              = "vm.cocoonstack.io/lifecycle-state"
	annotationLifecycleObservedGeneration = "vm.cocoonstack.io/lifecycle-observed-generation"
	annotationLifecycleStateMessage       = "vm.cocoonstack.io/lifecycle-state-message"
	kindCocoonSet                         = "CocoonSet"
	annotationTrue                        = "true"
)

// VMSpec is meta.VMSpec; the JSON names are the TypeScript field names, for the agreement check.
type VMSpec struct {
	VMName         string `json:"vmName"`
	Image          string `json:"image"`
	Mode           string `json:"mode"`
	OS             string `json:"os"`
	Storage        string `json:"storage"`
	Network        string `json:"network"`
	SnapshotPolicy string `json:"snapshotPolicy"`
	ForkFrom       string `json:"forkFrom"`
	Managed        bool   `json:"managed"`
	ForcePull      bool   `json:"forcePull"`
	NoDirectIO     bool   `json:"noDirectIO"`
	ConnType       string `json:"connType"`
	Backend        string `json:"backend"`
	ProbePort      string `json:"probePort"`
}

// LifecycleStatus is meta.LifecycleStatus.
type LifecycleStatus struct {
	State              string `json:"state"`
	ObservedGeneration int64  `json:"observedGeneration"`
	Message            string `json:"message"`
}

// VMOptions and AgentSpec are the apis/v1 fields FromAgentSpec reads, with their wire names.
type VMOptions struct {
	OS         string             `json:"os,omitempty"`
	Backend    string             `json:"backend,omitempty"`
	ConnType   string             `json:"connType,omitempty"`
	Network    string             `json:"network,omitempty"`
	ForcePull  bool               `json:"forcePull,omitempty"`
	NoDirectIO bool               `json:"noDirectIO,omitempty"`
	ProbePort  int32              `json:"probePort,omitempty"`
	Storage    *resource.Quantity `json:"storage,omitempty"`
}

// AgentSpec is apis/v1.AgentSpec without the fields FromAgentSpec ignores.
type AgentSpec struct {
	Image     string `json:"image"`
	Mode      string `json:"mode,omitempty"`
	VMOptions `json:",inline"`
}

func ensurePodAnnotations(pod *corev1.Pod) map[string]string {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	return pod.Annotations
}

func setIfNotEmpty(m map[string]string, key, value string) {
	if value != "" {
		m[key] = value
	}
}

func formatPort(port int32) string {
	if port <= 0 {
		return ""
	}
	return strconv.FormatInt(int64(port), 10)
}

// QuantityString is "" for nil, else the quantity's (cached) text.
func QuantityString(q *resource.Quantity) string {
	if q == nil {
		return ""
	}
	return q.String()
}

// Apply writes the spec onto the pod; empty strings and false flags leave existing keys alone.
func (s VMSpec) Apply(pod *corev1.Pod) {
	a := ensurePodAnnotations(pod)
	setIfNotEmpty(a, annotationVMName, s.VMName)
	setIfNotEmpty(a, annotationImage, s.Image)
	setIfNotEmpty(a, annotationMode, s.Mode)
	setIfNotEmpty(a, annotationOS, s.OS)
	setIfNotEmpty(a, annotationStorage, s.Storage)
	setIfNotEmpty(a, annotationNetwork, s.Network)
	setIfNotEmpty(a, annotationSnapshotPolicy, s.SnapshotPolicy)
	setIfNotEmpty(a, annotationForkFrom, s.ForkFrom)
	setIfNotEmpty(a, annotationConnType, s.ConnType)
	setIfNotEmpty(a, annotationBackend, s.Backend)
	if s.Managed {
		a[annotationManaged] = annotationTrue
	}
	if s.ForcePull {
		a[annotationForcePull] = annotationTrue
	}
	if s.NoDirectIO {
		a[annotationNoDirectIO] = annotationTrue
	}
	setIfNotEmpty(a, annotationProbePort, s.ProbePort)
}

// ParseVMSpec reads every field raw; the flags are exactly "true".
func ParseVMSpec(pod *corev1.Pod) VMSpec {
	a := pod.Annotations
	return VMSpec{
		VMName:         a[annotationVMName],
		Image:          a[annotationImage],
		Mode:           a[annotationMode],
		OS:             a[annotationOS],
		Storage:        a[annotationStorage],
		Network:        a[annotationNetwork],
		SnapshotPolicy: a[annotationSnapshotPolicy],
		ForkFrom:       a[annotationForkFrom],
		Managed:        a[annotationManaged] == annotationTrue,
		ForcePull:      a[annotationForcePull] == annotationTrue,
		NoDirectIO:     a[annotationNoDirectIO] == annotationTrue,
		ConnType:       a[annotationConnType],
		Backend:        a[annotationBackend],
		ProbePort:      a[annotationProbePort],
	}
}

// FromAgentSpec maps an agent spec to the VM spec the operator stamps on its pods.
func FromAgentSpec(spec AgentSpec, vmName, snapshotPolicy, forkFrom string) VMSpec {
	return VMSpec{
		VMName:         vmName,
		Image:          spec.Image,
		Mode:           cmp.Or(spec.Mode, "clone"),
		OS:             cmp.Or(spec.OS, "linux"),
		Storage:        QuantityString(spec.Storage),
		Network:        spec.Network,
		SnapshotPolicy: cmp.Or(snapshotPolicy, "always"),
		ForkFrom:       forkFrom,
		Managed:        true,
		ForcePull:      spec.ForcePull,
		NoDirectIO:     spec.NoDirectIO,
		ConnType:       spec.ConnType,
		Backend:        cmp.Or(spec.Backend, "cloud-hypervisor"),
		ProbePort:      formatPort(spec.ProbePort),
	}
}

func readInt64Annotation(pod *corev1.Pod, key string) int64 {
	raw := pod.Annotations[key]
	if raw == "" {
		return 0
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// ReadLifecycleStatus reads the state and message raw, the generation as a Go int64 (0 when invalid).
func ReadLifecycleStatus(pod *corev1.Pod) LifecycleStatus {
	return LifecycleStatus{
		State:              pod.Annotations[annotationLifecycleState],
		ObservedGeneration: readInt64Annotation(pod, annotationLifecycleObservedGeneration),
		Message:            pod.Annotations[annotationLifecycleStateMessage],
	}
}

// Annotations is the status as a merge-patch map; an empty message is a null that deletes the key.
func (s LifecycleStatus) Annotations() map[string]any {
	out := map[string]any{
		annotationLifecycleState:              s.State,
		annotationLifecycleObservedGeneration: strconv.FormatInt(s.ObservedGeneration, 10),
	}
	if s.Message == "" {
		out[annotationLifecycleStateMessage] = nil
	} else {
		out[annotationLifecycleStateMessage] = s.Message
	}
	return out
}

// ReadHibernateState is whether the hibernate annotation is exactly "true".
func ReadHibernateState(pod *corev1.Pod) bool {
	return pod.Annotations[annotationHibernate] == annotationTrue
}

// CocoonSetOwnerName is the name of the first owner reference of kind CocoonSet, or "".
func CocoonSetOwnerName(refs []metav1.OwnerReference) string {
	for _, ref := range refs {
		if ref.Kind == kindCocoonSet {
			return ref.Name
		}
	}
	return ""
}

// ExtractAgentSlot is the slot at the end of vk-<ns>-<set>-<slot>, or -1.
func ExtractAgentSlot(namespace, cocoonSet, vmName string) int {
	suffix, ok := strings.CutPrefix(vmName, "vk-"+namespace+"-"+cocoonSet+"-")
	if !ok || strings.Contains(suffix, "-") {
		return -1
	}
	n, err := strconv.Atoi(suffix)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// InferRoleFromAgentSlot: toolbox below 0, main at 0, sub-agent above.
func InferRoleFromAgentSlot(slot int) string {
	switch {
	case slot < 0:
		return "toolbox"
	case slot == 0:
		return "main"
	default:
		return "sub-agent"
	}
}

// RoleForPod infers the pod's role from its owner and VM name.
func RoleForPod(pod *corev1.Pod, vmName string) string {
	return InferRoleFromAgentSlot(ExtractAgentSlot(pod.Namespace, CocoonSetOwnerName(pod.OwnerReferences), vmName))
}

// AnnotationsMergePatch is the JSON merge patch that sets (or, for nil, deletes) the annotations.
func AnnotationsMergePatch(annotations map[string]any) ([]byte, error) {
	return json.Marshal(map[string]any{"metadata": map[string]any{"annotations": annotations}})
}

package cocoon

import corev1 "k8s.io/api/core/v1"

// VMSpec is meta.VMSpec.
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

// Apply writes the spec onto the pod; empty strings and false flags leave existing keys alone.
func (s VMSpec) Apply(pod *corev1.Pod) {
	a := ensurePodAnnotations(pod)
	setIfNotEmpty(a, AnnotationVMName, s.VMName)
	setIfNotEmpty(a, AnnotationImage, s.Image)
	setIfNotEmpty(a, AnnotationMode, s.Mode)
	setIfNotEmpty(a, AnnotationOS, s.OS)
	setIfNotEmpty(a, AnnotationStorage, s.Storage)
	setIfNotEmpty(a, AnnotationNetwork, s.Network)
	setIfNotEmpty(a, AnnotationSnapshotPolicy, s.SnapshotPolicy)
	setIfNotEmpty(a, AnnotationForkFrom, s.ForkFrom)
	setIfNotEmpty(a, AnnotationConnType, s.ConnType)
	setIfNotEmpty(a, AnnotationBackend, s.Backend)
	if s.Managed {
		a[AnnotationManaged] = annotationTrue
	}
	if s.ForcePull {
		a[AnnotationForcePull] = annotationTrue
	}
	if s.NoDirectIO {
		a[AnnotationNoDirectIO] = annotationTrue
	}
	setIfNotEmpty(a, AnnotationProbePort, s.ProbePort)
}

// ParseVMSpec reads every field raw; the flags are exactly "true".
func ParseVMSpec(pod *corev1.Pod) VMSpec {
	a := pod.Annotations
	return VMSpec{
		VMName:         a[AnnotationVMName],
		Image:          a[AnnotationImage],
		Mode:           a[AnnotationMode],
		OS:             a[AnnotationOS],
		Storage:        a[AnnotationStorage],
		Network:        a[AnnotationNetwork],
		SnapshotPolicy: a[AnnotationSnapshotPolicy],
		ForkFrom:       a[AnnotationForkFrom],
		Managed:        a[AnnotationManaged] == annotationTrue,
		ForcePull:      a[AnnotationForcePull] == annotationTrue,
		NoDirectIO:     a[AnnotationNoDirectIO] == annotationTrue,
		ConnType:       a[AnnotationConnType],
		Backend:        a[AnnotationBackend],
		ProbePort:      a[AnnotationProbePort],
	}
}

package main

// VMSpec is meta.VMSpec. The JSON tags are this protocol's, not Go's (meta.VMSpec has none).
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

func (s VMSpec) Apply(p *pod) {
	a := ensurePodAnnotations(p)
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

func ParseVMSpec(p *pod) VMSpec {
	a := p.Annotations
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

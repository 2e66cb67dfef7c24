package cocoon

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// VMRuntime is meta.VMRuntime.
type VMRuntime struct {
	VMID    string `json:"vmID"`
	IP      string `json:"ip"`
	VNCPort int32  `json:"vncPort"`
}

// Apply sets the non-empty fields and a positive port; it never deletes.
func (r VMRuntime) Apply(pod *corev1.Pod) {
	a := ensurePodAnnotations(pod)
	setIfNotEmpty(a, AnnotationVMID, r.VMID)
	setIfNotEmpty(a, AnnotationIP, r.IP)
	if r.VNCPort > 0 {
		a[AnnotationVNCPort] = strconv.FormatInt(int64(r.VNCPort), 10)
	}
}

// ParseVMRuntime reads the ID and IP raw and the port with ParseInt(v, 10, 32), 0 on error.
func ParseVMRuntime(pod *corev1.Pod) VMRuntime {
	r := VMRuntime{VMID: pod.Annotations[AnnotationVMID], IP: pod.Annotations[AnnotationIP]}
	if v := pod.Annotations[AnnotationVNCPort]; v != "" {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			r.VNCPort = int32(n)
		}
	}
	return r
}

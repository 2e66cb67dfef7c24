package main

import "strconv"

// VMRuntime is meta.VMRuntime (protocol JSON tags).
type VMRuntime struct {
	VMID    string `json:"vmID"`
	IP      string `json:"ip"`
	VNCPort int32  `json:"vncPort"`
}

func (r VMRuntime) Apply(p *pod) {
	a := ensurePodAnnotations(p)
	setIfNotEmpty(a, annotationVMID, r.VMID)
	setIfNotEmpty(a, annotationIP, r.IP)
	if r.VNCPort > 0 {
		a[annotationVNCPort] = strconv.FormatInt(int64(r.VNCPort), 10)
	}
}

func ParseVMRuntime(p *pod) VMRuntime {
	r := VMRuntime{VMID: p.Annotations[annotationVMID], IP: p.Annotations[annotationIP]}
	if v := p.Annotations[annotationVNCPort]; v != "" {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			r.VNCPort = int32(n)
		}
	}
	return r
}

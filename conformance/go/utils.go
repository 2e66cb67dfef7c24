package main

import (
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
)

func ensurePodAnnotations(p *pod) map[string]string {
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	return p.Annotations
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

// QuantityString is meta.QuantityString.
func QuantityString(q *resource.Quantity) string {
	if q == nil {
		return ""
	}
	return q.String()
}

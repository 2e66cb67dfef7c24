package cocoon

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

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

// readInt64Annotation is 0 for a missing key and for any strconv.ParseInt error.
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

// QuantityString is "" for nil, else q.String(): the cached input text when the quantity was
// parsed from canonical-enough text, else the canonical form.
func QuantityString(q *resource.Quantity) string {
	if q == nil {
		return ""
	}
	return q.String()
}

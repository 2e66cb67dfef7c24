package cocoon

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// LifecycleState is meta.LifecycleState.
type LifecycleState string

// LifecycleStatus is meta.LifecycleStatus. The int64 travels as a decimal string, so no JSON
// number above 2^53 loses precision on the TypeScript side.
type LifecycleStatus struct {
	State              LifecycleState `json:"state"`
	ObservedGeneration int64          `json:"observedGeneration,string"`
	Message            string         `json:"message"`
}

// Annotations is the status as a merge-patch map; an empty message is a nil that deletes the key.
func (s LifecycleStatus) Annotations() map[string]any {
	annos := map[string]any{
		AnnotationLifecycleState:              string(s.State),
		AnnotationLifecycleObservedGeneration: strconv.FormatInt(s.ObservedGeneration, 10),
	}
	if s.Message == "" {
		annos[AnnotationLifecycleStateMessage] = nil
	} else {
		annos[AnnotationLifecycleStateMessage] = s.Message
	}
	return annos
}

// Snapshot is the drift-comparison key: the three fields joined by NUL.
func (s LifecycleStatus) Snapshot() string {
	return string(s.State) + "\x00" + strconv.FormatInt(s.ObservedGeneration, 10) + "\x00" + s.Message
}

// ReadLifecycleStatus reads the state and message raw, the generation as an int64 (0 when invalid).
func ReadLifecycleStatus(pod *corev1.Pod) LifecycleStatus {
	return LifecycleStatus{
		State:              LifecycleState(pod.Annotations[AnnotationLifecycleState]),
		ObservedGeneration: readInt64Annotation(pod, AnnotationLifecycleObservedGeneration),
		Message:            pod.Annotations[AnnotationLifecycleStateMessage],
	}
}

// ReadCocoonSetGeneration is the generation the operator stamped on the pod, 0 when invalid.
func ReadCocoonSetGeneration(pod *corev1.Pod) int64 {
	return readInt64Annotation(pod, AnnotationCocoonSetGeneration)
}

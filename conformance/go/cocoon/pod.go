package cocoon

import (
	"cmp"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// IsPodReady is whether the pod has a Ready=True condition.
func IsPodReady(pod *corev1.Pod) bool {
	return slices.ContainsFunc(pod.Status.Conditions, func(c corev1.PodCondition) bool {
		return c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue
	})
}

// IsPodTerminal is whether the pod is in phase Failed (Succeeded is not terminal).
func IsPodTerminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodFailed
}

// IsContainerRunning is whether any container status has a running state.
func IsContainerRunning(pod *corev1.Pod) bool {
	return slices.ContainsFunc(pod.Status.ContainerStatuses, func(cs corev1.ContainerStatus) bool {
		return cs.State.Running != nil
	})
}

// PodNodePool is the first non-empty pool of node selector, labels and annotations, or the default.
func PodNodePool(pod *corev1.Pod) string {
	return cmp.Or(pod.Spec.NodeSelector[LabelNodePool], pod.Labels[LabelNodePool], pod.Annotations[LabelNodePool], DefaultNodePool)
}

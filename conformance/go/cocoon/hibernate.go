package cocoon

import corev1 "k8s.io/api/core/v1"

// HibernateState is meta.HibernateState.
type HibernateState bool

// ReadHibernateState is whether the hibernate annotation is exactly "true".
func ReadHibernateState(pod *corev1.Pod) HibernateState {
	return pod.Annotations[AnnotationHibernate] == annotationTrue
}

// ReadRestoreFromHibernate is whether the restore-from-hibernate annotation is exactly "true".
func ReadRestoreFromHibernate(pod *corev1.Pod) bool {
	return pod.Annotations[AnnotationRestoreFromHibernate] == annotationTrue
}

// ReadKeepSnapshotOnDelete is whether the keep-snapshot-on-delete annotation is exactly "true".
func ReadKeepSnapshotOnDelete(pod *corev1.Pod) bool {
	return pod.Annotations[AnnotationKeepSnapshotOnDelete] == annotationTrue
}

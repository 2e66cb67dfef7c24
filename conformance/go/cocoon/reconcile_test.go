package cocoon

import corev1 "k8s.io/api/core/v1"

// reconcileResult is what one reconcile-shaped pass computes for a pod.
type reconcileResult struct {
	Spec      VMSpec          `json:"spec"`
	Status    LifecycleStatus `json:"status"`
	Role      string          `json:"role"`
	Hibernate bool            `json:"hibernate"`
	Patch     string          `json:"patch"`
}

// reconcile is the per-pod work of a status pass: read spec, lifecycle, role and hibernate flag,
// then build the lifecycle merge patch the controller would send.
func reconcile(pod *corev1.Pod) (reconcileResult, error) {
	spec := ParseVMSpec(pod)
	status := ReadLifecycleStatus(pod)
	role := RoleForPod(pod, spec.VMName)
	hibernate := ReadHibernateState(pod)
	next := LifecycleStatus{State: "ready", ObservedGeneration: status.ObservedGeneration + 1}
	patch, err := AnnotationsMergePatch(next.Annotations())
	return reconcileResult{Spec: spec, Status: status, Role: role, Hibernate: bool(hibernate), Patch: string(patch)}, err
}

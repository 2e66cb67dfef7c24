package cocoon

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HasCocoonTolerationKey is whether any toleration has the virtual-kubelet provider key.
func HasCocoonTolerationKey(tolerations []corev1.Toleration) bool {
	for _, t := range tolerations {
		if t.Key == TolerationKey {
			return true
		}
	}
	return false
}

// IsOwnedByCocoonSet is whether an owner reference of kind CocoonSet has a name.
func IsOwnedByCocoonSet(refs []metav1.OwnerReference) bool {
	return CocoonSetOwnerName(refs) != ""
}

// CocoonSetOwnerName is the name of the first owner reference of kind CocoonSet, or "".
func CocoonSetOwnerName(refs []metav1.OwnerReference) string {
	for _, ref := range refs {
		if ref.Kind == KindCocoonSet {
			return ref.Name
		}
	}
	return ""
}

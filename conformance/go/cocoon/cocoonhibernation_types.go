package cocoon

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The apis/v1 CocoonHibernation types (cocoonhibernation_types.go), as cocoonset_types.go.

type CocoonHibernation struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CocoonHibernationSpec   `json:"spec,omitempty"`
	Status            CocoonHibernationStatus `json:"status,omitempty"`
}

type HibernationPodRef struct {
	Name string `json:"name"`
}

type CocoonHibernationSpec struct {
	PodRef HibernationPodRef `json:"podRef"`
	Desire string            `json:"desire"`
}

type CocoonHibernationStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Phase              string             `json:"phase,omitempty"`
	VMName             string             `json:"vmName,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// DeepCopyObject is the runtime.Object method client.MergeFrom needs.
func (in *CocoonHibernation) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

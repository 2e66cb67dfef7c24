package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The cocoon-common v0.3.0 API types (apis/v1/cocoonset_types.go, cocoonhibernation_types.go),
// re-declared field for field with the same json tags and omitempty: they decide what
// client.MergeFrom sends. The spec types meta.FromAgentSpec reads (and their enums) are in spec.go;
// the other enums are plain strings here, as only their wire form matters.

type CocoonSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CocoonSetSpec   `json:"spec,omitempty"`
	Status            CocoonSetStatus `json:"status,omitempty"`
}

type CocoonSetSpec struct {
	Suspend                    bool           `json:"suspend,omitempty"`
	SnapshotPolicy             SnapshotPolicy `json:"snapshotPolicy,omitempty"`
	HibernatePolicy            string         `json:"hibernatePolicy,omitempty"`
	NodePool                   string         `json:"nodePool,omitempty"`
	SnapshotCompatibilityClass string         `json:"snapshotCompatibilityClass,omitempty"`
	NodeName                   string         `json:"nodeName,omitempty"`
	Agent                      AgentSpec      `json:"agent"`
	Toolboxes                  []ToolboxSpec  `json:"toolboxes,omitempty"`
}

type CocoonSetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Phase              string             `json:"phase,omitempty"`
	ReadyAgents        int32              `json:"readyAgents"`
	DesiredAgents      int32              `json:"desiredAgents"`
	ReadyToolboxes     int32              `json:"readyToolboxes"`
	DesiredToolboxes   int32              `json:"desiredToolboxes"`
	Agents             []AgentStatus      `json:"agents,omitempty"`
	Toolboxes          []ToolboxStatus    `json:"toolboxes,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

type AgentStatus struct {
	Slot       int32  `json:"slot"`
	Role       string `json:"role"`
	PodName    string `json:"podName,omitempty"`
	VMName     string `json:"vmName,omitempty"`
	VMID       string `json:"vmID,omitempty"`
	IP         string `json:"ip,omitempty"`
	Phase      string `json:"phase,omitempty"`
	ForkedFrom string `json:"forkedFrom,omitempty"`
}

type ToolboxStatus struct {
	Name     string `json:"name"`
	PodName  string `json:"podName,omitempty"`
	VMName   string `json:"vmName,omitempty"`
	VMID     string `json:"vmID,omitempty"`
	IP       string `json:"ip,omitempty"`
	Phase    string `json:"phase,omitempty"`
	ConnType string `json:"connType,omitempty"`
	VNCPort  int32  `json:"vncPort,omitempty"`
}

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

// The runtime.Object methods client.MergeFrom needs (controller-gen writes them in Go).

func (in *CocoonSet) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

func (in *CocoonHibernation) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

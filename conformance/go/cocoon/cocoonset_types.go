package cocoon

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The apis/v1 CocoonSet types (cocoonset_types.go), field for field with the same json tags and
// omitempty (go-contract.md §1.3): they decide what client.MergeFrom sends and what
// meta.FromAgentSpec reads. The enums meta defaults are in enums.go.

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

type VMOptions struct {
	OS         OSType                      `json:"os,omitempty"`
	Backend    Backend                     `json:"backend,omitempty"`
	ConnType   ConnType                    `json:"connType,omitempty"`
	Network    string                      `json:"network,omitempty"`
	ForcePull  bool                        `json:"forcePull,omitempty"`
	NoDirectIO bool                        `json:"noDirectIO,omitempty"`
	ProbePort  int32                       `json:"probePort,omitempty"`
	Storage    *resource.Quantity          `json:"storage,omitempty"`
	Resources  corev1.ResourceRequirements `json:"resources,omitempty"`
}

type AgentSpec struct {
	Replicas           int32     `json:"replicas,omitempty"`
	Image              string    `json:"image"`
	Mode               AgentMode `json:"mode,omitempty"`
	VMOptions          `json:",inline"`
	EnvFrom            []corev1.EnvFromSource `json:"envFrom,omitempty"`
	ServiceAccountName string                 `json:"serviceAccountName,omitempty"`
}

type ToolboxSpec struct {
	Name       string      `json:"name"`
	Image      string      `json:"image,omitempty"`
	Mode       ToolboxMode `json:"mode,omitempty"`
	StaticIP   string      `json:"staticIP,omitempty"`
	StaticVMID string      `json:"staticVMID,omitempty"`
	VNCPort    int32       `json:"vncPort,omitempty"`
	VMOptions  `json:",inline"`
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

// DeepCopyObject is the runtime.Object method client.MergeFrom needs (controller-gen writes it in Go).
func (in *CocoonSet) DeepCopyObject() runtime.Object {
	out := *in
	return &out
}

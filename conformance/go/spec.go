package main

// The apis/v1 spec types that feed meta.FromAgentSpec / FromToolboxSpec, with their JSON tags from
// go-contract.md §1.3, and those two functions (§2.3). The rest of the CRD types is in
// cocoontypes.go.

import (
	"cmp"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

type (
	AgentMode      string
	ToolboxMode    string
	OSType         string
	SnapshotPolicy string
	ConnType       string
	Backend        string
)

func (m AgentMode) Default() AgentMode           { return cmp.Or(m, "clone") }
func (m ToolboxMode) Default() ToolboxMode       { return cmp.Or(m, "run") }
func (o OSType) Default() OSType                 { return cmp.Or(o, "linux") }
func (p SnapshotPolicy) Default() SnapshotPolicy { return cmp.Or(p, "always") }
func (b Backend) Default() Backend               { return cmp.Or(b, "cloud-hypervisor") }

const toolboxModeStatic ToolboxMode = "static"

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

func FromAgentSpec(spec AgentSpec, vmName string, snapshotPolicy SnapshotPolicy, forkFrom string) VMSpec {
	s := fromVMOptions(spec.VMOptions, vmName, snapshotPolicy)
	s.Image, s.Mode, s.ForkFrom, s.Managed = spec.Image, string(spec.Mode.Default()), forkFrom, true
	return s
}

func FromToolboxSpec(spec ToolboxSpec, vmName string, snapshotPolicy SnapshotPolicy) VMSpec {
	s := fromVMOptions(spec.VMOptions, vmName, snapshotPolicy)
	s.Image, s.Mode, s.Managed = spec.Image, string(spec.Mode.Default()), spec.Mode != toolboxModeStatic
	return s
}

func fromVMOptions(o VMOptions, vmName string, snapshotPolicy SnapshotPolicy) VMSpec {
	return VMSpec{
		VMName:         vmName,
		OS:             string(o.OS.Default()),
		Storage:        QuantityString(o.Storage),
		Network:        o.Network,
		SnapshotPolicy: string(snapshotPolicy.Default()),
		ForcePull:      o.ForcePull,
		NoDirectIO:     o.NoDirectIO,
		ConnType:       string(o.ConnType),
		Backend:        string(o.Backend.Default()),
		ProbePort:      formatPort(o.ProbePort),
	}
}

// specAnswer: the decode error, or FromXSpec's VMSpec, its Apply patch, and json.Marshal of the
// decoded spec (what a Go client writes back).
type specAnswer struct {
	Error   *string `json:"error,omitempty"`
	VMSpec  *VMSpec `json:"vmSpec,omitempty"`
	Patch   string  `json:"patch,omitempty"`
	Encoded string  `json:"encoded,omitempty"`
}

type specArgs struct {
	Spec           string `json:"spec"`
	VMName         string `json:"vmName"`
	SnapshotPolicy string `json:"snapshotPolicy"`
	ForkFrom       string `json:"forkFrom"`
}

func specOp[T any](raw json.RawMessage, from func(T, specArgs) VMSpec) (any, error) {
	var args specArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var spec T
	if err := json.Unmarshal([]byte(args.Spec), &spec); err != nil {
		text := err.Error()
		return specAnswer{Error: &text}, nil
	}
	vmSpec := from(spec, args)
	patch, err := marshalPatch(applied(vmSpec.Apply))
	if err != nil {
		return nil, err
	}
	encoded, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	return specAnswer{VMSpec: &vmSpec, Patch: patch, Encoded: string(encoded)}, nil
}

// agentSpecOp: {"spec": JSON text, "vmName", "snapshotPolicy", "forkFrom"} → FromAgentSpec.
func agentSpecOp(raw json.RawMessage) (any, error) {
	return specOp(raw, func(s AgentSpec, a specArgs) VMSpec {
		return FromAgentSpec(s, a.VMName, SnapshotPolicy(a.SnapshotPolicy), a.ForkFrom)
	})
}

// toolboxSpecOp: {"spec": JSON text, "vmName", "snapshotPolicy"} → FromToolboxSpec.
func toolboxSpecOp(raw json.RawMessage) (any, error) {
	return specOp(raw, func(s ToolboxSpec, a specArgs) VMSpec {
		return FromToolboxSpec(s, a.VMName, SnapshotPolicy(a.SnapshotPolicy))
	})
}

// jsonEcho: {"text": JSON} → json.Marshal of the text decoded into an any (objects become
// maps with sorted keys, numbers float64, strings unescaped with bad escapes as U+FFFD).
func jsonEcho(raw json.RawMessage) (any, error) {
	var args struct {
		Text string `json:"text"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var value any
	if err := json.Unmarshal([]byte(args.Text), &value); err != nil {
		return nil, err
	}
	out, err := json.Marshal(value)
	return map[string]string{"text": string(out)}, err
}

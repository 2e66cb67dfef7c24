package main

// The agentSpec and toolboxSpec ops: a spec decoded from JSON text as the operator decodes a
// CocoonSet, then meta.FromAgentSpec / FromToolboxSpec on it; and the json.echo op.

import (
	"encoding/json"

	"cocoon-common-conformance-oracle/cocoon"
)

// specAnswer: the decode error, or FromXSpec's VMSpec, its Apply patch, and json.Marshal of the
// decoded spec (what a Go client writes back).
type specAnswer struct {
	Error   *string        `json:"error,omitempty"`
	VMSpec  *cocoon.VMSpec `json:"vmSpec,omitempty"`
	Patch   string         `json:"patch,omitempty"`
	Encoded string         `json:"encoded,omitempty"`
}

type specArgs struct {
	Spec           string `json:"spec"`
	VMName         string `json:"vmName"`
	SnapshotPolicy string `json:"snapshotPolicy"`
	ForkFrom       string `json:"forkFrom"`
}

func specOp[T any](raw json.RawMessage, from func(T, specArgs) cocoon.VMSpec) (any, error) {
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
	return specOp(raw, func(s cocoon.AgentSpec, a specArgs) cocoon.VMSpec {
		return cocoon.FromAgentSpec(s, a.VMName, cocoon.SnapshotPolicy(a.SnapshotPolicy), a.ForkFrom)
	})
}

// toolboxSpecOp: {"spec": JSON text, "vmName", "snapshotPolicy"} → FromToolboxSpec.
func toolboxSpecOp(raw json.RawMessage) (any, error) {
	return specOp(raw, func(s cocoon.ToolboxSpec, a specArgs) cocoon.VMSpec {
		return cocoon.FromToolboxSpec(s, a.VMName, cocoon.SnapshotPolicy(a.SnapshotPolicy))
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

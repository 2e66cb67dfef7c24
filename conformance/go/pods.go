package main

import (
	"encoding/json"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"cocoon-common-conformance-oracle/cocoon"
)

// podReaders: {"pod": "<pod JSON text>", "vmName": "..."} → what the pod, owner and slot helpers
// return for the pod as a client decodes it, into a corev1.Pod with encoding/json (a JSON null
// list, list item, map value or state is the zero value); the slot as a decimal string.
// {"decodeError": true} when the text does not decode into a Pod.
func podReaders(raw json.RawMessage) (any, error) {
	var args struct {
		Pod    string `json:"pod"`
		VMName string `json:"vmName"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var p corev1.Pod
	if err := json.Unmarshal([]byte(args.Pod), &p); err != nil {
		return map[string]any{"decodeError": true}, nil
	}
	owner := cocoon.CocoonSetOwnerName(p.OwnerReferences)
	return map[string]any{
		"isPodReady":             cocoon.IsPodReady(&p),
		"isPodTerminal":          cocoon.IsPodTerminal(&p),
		"isContainerRunning":     cocoon.IsContainerRunning(&p),
		"podNodePool":            cocoon.PodNodePool(&p),
		"cocoonSetOwnerName":     owner,
		"isOwnedByCocoonSet":     cocoon.IsOwnedByCocoonSet(p.OwnerReferences),
		"hasCocoonTolerationKey": cocoon.HasCocoonTolerationKey(p.Spec.Tolerations),
		"extractAgentSlot":       strconv.Itoa(cocoon.ExtractAgentSlot(p.Namespace, owner, args.VMName)),
		"roleForPod":             cocoon.RoleForPod(&p, args.VMName),
	}, nil
}

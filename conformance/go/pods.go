package main

import (
	"encoding/json"
	"strconv"
	"strings"
)

// podObject holds the corev1.Pod fields the pod, owner and slot helpers read, with corev1's JSON
// tags, so that encoding/json decodes a JSON null (a null list item, a null map value, a null
// state) exactly as it decodes it into a corev1.Pod: to the zero value.
type podObject struct {
	Metadata struct {
		Namespace       string            `json:"namespace"`
		Labels          map[string]string `json:"labels"`
		Annotations     map[string]string `json:"annotations"`
		OwnerReferences []struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"ownerReferences"`
	} `json:"metadata"`
	Spec struct {
		NodeSelector map[string]string `json:"nodeSelector"`
		Tolerations  []struct {
			Key string `json:"key"`
		} `json:"tolerations"`
	} `json:"spec"`
	Status struct {
		Phase      string `json:"phase"`
		Conditions []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
		ContainerStatuses []struct {
			State struct {
				Running *struct{} `json:"running"`
			} `json:"state"`
		} `json:"containerStatuses"`
	} `json:"status"`
}

func (p *podObject) isReady() bool {
	for _, c := range p.Status.Conditions {
		if c.Type == "Ready" && c.Status == "True" {
			return true
		}
	}
	return false
}

func (p *podObject) isContainerRunning() bool {
	for _, s := range p.Status.ContainerStatuses {
		if s.State.Running != nil {
			return true
		}
	}
	return false
}

func (p *podObject) nodePool() string {
	for _, v := range []string{p.Spec.NodeSelector[labelNodePool], p.Metadata.Labels[labelNodePool], p.Metadata.Annotations[labelNodePool]} {
		if v != "" {
			return v
		}
	}
	return "default"
}

func (p *podObject) cocoonSetOwnerName() string {
	for _, ref := range p.Metadata.OwnerReferences {
		if ref.Kind == "CocoonSet" {
			return ref.Name
		}
	}
	return ""
}

func (p *podObject) hasTolerationKey() bool {
	for _, t := range p.Spec.Tolerations {
		if t.Key == "virtual-kubelet.io/provider" {
			return true
		}
	}
	return false
}

func extractAgentSlot(namespace, cocoonSet, vmName string) int {
	prefix := "vk-" + namespace + "-" + cocoonSet + "-"
	if !strings.HasPrefix(vmName, prefix) {
		return -1
	}
	suffix := strings.TrimPrefix(vmName, prefix)
	if strings.Contains(suffix, "-") {
		return -1
	}
	n, err := strconv.Atoi(suffix)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

func inferRoleFromAgentSlot(slot int) string {
	switch {
	case slot < 0:
		return "toolbox"
	case slot == 0:
		return "main"
	default:
		return "sub-agent"
	}
}

const labelNodePool = "cocoonstack.io/pool"

// podReaders: {"pod": "<pod JSON text>", "vmName": "..."} → what the pod, owner and slot helpers
// return for the pod as a client decodes it (slot as a decimal string); {"decodeError": true}
// when the text does not decode into a Pod.
func podReaders(raw json.RawMessage) (any, error) {
	var args struct {
		Pod    string `json:"pod"`
		VMName string `json:"vmName"`
	}
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	var p podObject
	if err := json.Unmarshal([]byte(args.Pod), &p); err != nil {
		return map[string]any{"decodeError": true}, nil
	}
	owner := p.cocoonSetOwnerName()
	slot := extractAgentSlot(p.Metadata.Namespace, owner, args.VMName)
	return map[string]any{
		"isPodReady":             p.isReady(),
		"isPodTerminal":          p.Status.Phase == "Failed",
		"isContainerRunning":     p.isContainerRunning(),
		"podNodePool":            p.nodePool(),
		"cocoonSetOwnerName":     owner,
		"isOwnedByCocoonSet":     owner != "",
		"hasCocoonTolerationKey": p.hasTolerationKey(),
		"extractAgentSlot":       strconv.Itoa(slot),
		"roleForPod":             inferRoleFromAgentSlot(slot),
	}, nil
}

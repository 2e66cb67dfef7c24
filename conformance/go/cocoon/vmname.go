package cocoon

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// VMNameForDeployment is "vk-<namespace>-<deployment>-<slot>", the VM name of an agent slot.
func VMNameForDeployment(namespace, deployment string, slot int) string {
	return fmt.Sprintf("vk-%s-%s-%d", namespace, deployment, slot)
}

// AgentVMNamePrefix is "vk-<namespace>-<cocoonSet>-", the prefix of every agent VM name.
func AgentVMNamePrefix(namespace, cocoonSet string) string {
	return "vk-" + namespace + "-" + cocoonSet + "-"
}

// ExtractAgentSlot is the slot at the end of vk-<ns>-<set>-<slot> (strconv.Atoi, no dash), or -1.
func ExtractAgentSlot(namespace, cocoonSet, vmName string) int {
	suffix, ok := strings.CutPrefix(vmName, AgentVMNamePrefix(namespace, cocoonSet))
	if !ok || strings.Contains(suffix, "-") {
		return -1
	}
	n, err := strconv.Atoi(suffix)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// InferRoleFromAgentSlot: toolbox below 0, main at 0, sub-agent above.
func InferRoleFromAgentSlot(slot int) string {
	switch {
	case slot < 0:
		return RoleToolbox
	case slot == 0:
		return RoleMain
	default:
		return RoleSubAgent
	}
}

// RoleForPod infers the pod's role from its CocoonSet owner and VM name.
func RoleForPod(pod *corev1.Pod, vmName string) string {
	return InferRoleFromAgentSlot(ExtractAgentSlot(pod.Namespace, CocoonSetOwnerName(pod.OwnerReferences), vmName))
}

package cocoon

import (
	"cmp"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The cocoon-operator's pod builder and drift check (cocoonset/pods.go), re-declared because the
// Go module proxy does not serve the operator. The bodies follow the operator's code as read at
// commit 08bc8e1, plus the snapshot-class node selector its commit 6151b05 adds (the golden
// vectors in test/fixtures/go/operator/pods.json show it on every pod); schedulingMatches is
// read from those vectors, as the TypeScript twin's is.

const (
	agentContainerName = "agent"
	placeholderImage   = "ghcr.io/cocoonstack/placeholder:latest"
)

// CocoonSetGroupVersion is apis/v1's GroupVersion.
var CocoonSetGroupVersion = schema.GroupVersion{Group: "cocoonset.cocoonstack.io", Version: "v1"}

// OperatorScheme is the operator's scheme as far as the builders use it: the CocoonSet kind.
func OperatorScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(CocoonSetGroupVersion, &CocoonSet{})
	metav1.AddToGroupVersion(s, CocoonSetGroupVersion)
	return s
}

// BuildAgentPod is the operator's buildAgentPod.
func BuildAgentPod(cs *CocoonSet, slot int32, mainVMName, bindNodeName string, scheme *runtime.Scheme) (*corev1.Pod, error) {
	role := RoleMain
	forkFrom := ""
	if slot > 0 {
		role = RoleSubAgent
		forkFrom = mainVMName
	}
	vmName := VMNameForDeployment(cs.Namespace, cs.Name, int(slot))
	podName := fmt.Sprintf("%s-%d", cs.Name, slot)
	pod, err := newManagedPod(cs, podName, role, strconv.FormatInt(int64(slot), 10), scheme)
	if err != nil {
		return nil, err
	}
	FromAgentSpec(cs.Spec.Agent, vmName, cs.Spec.SnapshotPolicy, forkFrom).Apply(pod)
	pod.Spec.Containers[0].Resources = cs.Spec.Agent.Resources
	applyStorageRequest(pod, cs.Spec.Agent.Storage)
	pod.Spec.Containers[0].EnvFrom = cs.Spec.Agent.EnvFrom
	if cs.Spec.Agent.ServiceAccountName != "" {
		pod.Spec.ServiceAccountName = cs.Spec.Agent.ServiceAccountName
	}
	if bindNodeName != "" {
		pod.Spec.NodeName = bindNodeName
	} else if slot == 0 && cs.Spec.NodeName != "" {
		pod.Spec.Affinity = hostnameAffinity(cs.Spec.NodeName)
	}
	return pod, nil
}

func hostnameAffinity(nodeName string) *corev1.Affinity {
	return &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{
				Key: corev1.LabelHostname, Operator: corev1.NodeSelectorOpIn, Values: []string{nodeName},
			}}}},
		},
	}}
}

func newManagedPod(cs *CocoonSet, podName, role, slotLabel string, scheme *runtime.Scheme) (*corev1.Pod, error) {
	one := int64(1)
	nodeSelector := map[string]string{LabelNodePool: cmp.Or(cs.Spec.NodePool, DefaultNodePool)}
	if cs.Spec.SnapshotCompatibilityClass != "" {
		nodeSelector[LabelSnapshotCompatibilityClass] = cs.Spec.SnapshotCompatibilityClass
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      podName,
			Namespace: cs.Namespace,
			Labels: map[string]string{
				LabelCocoonSet:           cs.Name,
				LabelRole:                role,
				LabelSlot:                slotLabel,
				"app.kubernetes.io/name": cs.Name,
			},
			Annotations: map[string]string{AnnotationCocoonSetGeneration: strconv.FormatInt(cs.Generation, 10)},
		},
		Spec: corev1.PodSpec{
			TerminationGracePeriodSeconds: &one,
			Tolerations: []corev1.Toleration{
				{Key: TolerationKey, Operator: corev1.TolerationOpExists},
				{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
				{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
			},
			NodeSelector: nodeSelector,
			Containers:   []corev1.Container{{Name: agentContainerName, Image: placeholderImage}},
		},
	}
	if err := controllerutil.SetControllerReference(cs, pod, scheme); err != nil {
		return nil, fmt.Errorf("set controller reference: %w", err)
	}
	return pod, nil
}

// PodSpecMatchesAgent is the operator's podSpecMatchesAgent.
func PodSpecMatchesAgent(pod *corev1.Pod, cs *CocoonSet, slot int32) bool {
	current := ParseVMSpec(pod)
	forkFrom := ""
	if slot > 0 {
		forkFrom = current.ForkFrom
	}
	want := FromAgentSpec(cs.Spec.Agent, current.VMName, cs.Spec.SnapshotPolicy, forkFrom)
	if current != want || !resourcesMatch(pod, cs.Spec.Agent.Resources) {
		return false
	}
	if cmp.Or(pod.Spec.ServiceAccountName, "default") != cmp.Or(cs.Spec.Agent.ServiceAccountName, "default") {
		return false
	}
	if !equality.Semantic.DeepEqual(pod.Spec.Containers[0].EnvFrom, cs.Spec.Agent.EnvFrom) {
		return false
	}
	return schedulingMatches(pod, cs)
}

func resourcesMatch(pod *corev1.Pod, want corev1.ResourceRequirements) bool {
	if len(pod.Spec.Containers) == 0 {
		return false
	}
	got := pod.Spec.Containers[0].Resources
	wantReq := want.Requests
	if len(wantReq) == 0 {
		wantReq = want.Limits
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if !quantityEqual(got.Limits, want.Limits, res) || !quantityEqual(got.Requests, wantReq, res) {
			return false
		}
	}
	return true
}

func quantityEqual(a, b corev1.ResourceList, name corev1.ResourceName) bool {
	qa, oka := a[name]
	qb, okb := b[name]
	if !oka && !okb {
		return true
	}
	if !oka || !okb {
		return false
	}
	return qa.Cmp(qb) == 0
}

func schedulingMatches(pod *corev1.Pod, cs *CocoonSet) bool {
	return PodNodePool(pod) == cmp.Or(cs.Spec.NodePool, DefaultNodePool) &&
		pod.Spec.NodeSelector[LabelSnapshotCompatibilityClass] == cs.Spec.SnapshotCompatibilityClass
}

func applyStorageRequest(pod *corev1.Pod, storage *resource.Quantity) {
	if storage == nil || storage.IsZero() {
		return
	}
	c := &pod.Spec.Containers[0]
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	if c.Resources.Limits == nil {
		c.Resources.Limits = corev1.ResourceList{}
	}
	c.Resources.Requests[corev1.ResourceEphemeralStorage] = *storage
	c.Resources.Limits[corev1.ResourceEphemeralStorage] = *storage
}
